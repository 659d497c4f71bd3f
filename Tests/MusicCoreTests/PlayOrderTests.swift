import Foundation
import MusicCore
import Testing

/// Loop modes and list edits, edge by edge: what plays next, what "previous" means, and that a saved
/// order continues exactly where it was.
@Suite struct PlayOrderTests {
    func order(_ count: Int, start: Int? = 0, mode: LoopMode = .list, seed: UInt64 = 1) -> (
        PlayOrder, [Int64]
    ) {
        var order = PlayOrder(seed: seed)
        order.setMode(mode)
        let ids = order.replace(count: count, start: start)
        return (order, ids)
    }

    @Test func listModeWrapsBothWays() {
        var (order, ids) = order(3)
        #expect(order.current == ids[0])
        let step1 = order.next()
        #expect(step1 == ids[1])
        let step2 = order.next(ended: true)
        #expect(step2 == ids[2])
        let step3 = order.next(ended: true)
        #expect(step3 == ids[0])
        let step4 = order.previous()
        #expect(step4 == ids[2])
        let step5 = order.previous()
        #expect(step5 == ids[1])
    }

    @Test func singleRepeatsWhenASongEndsButMovesOnRequest() {
        var (order, ids) = order(3, mode: .single)
        let step6 = order.next(ended: true)
        #expect(step6 == ids[0])
        #expect(order.upcoming() == ids[0])
        let step7 = order.next()
        #expect(step7 == ids[1])
        let step8 = order.previous()
        #expect(step8 == ids[0])
        let step9 = order.previous()
        #expect(step9 == ids[2])
    }

    @Test func emptyAndOneSongLists() {
        for mode in LoopMode.allCases {
            var (empty, _) = order(0, start: nil, mode: mode)
            let step10 = empty.next()
            #expect(step10 == nil)
            let step11 = empty.previous()
            #expect(step11 == nil)
            #expect(empty.upcoming() == nil)
            var (one, ids) = order(1, mode: mode)
            let step12 = one.next()
            #expect(step12 == ids[0])
            let step13 = one.next(ended: true)
            #expect(step13 == ids[0])
            let step14 = one.previous()
            #expect(step14 == ids[0])
            let step15 = one.remove(ids[0])
            #expect(step15)
            #expect(one.current == nil && one.isEmpty)
            let step16 = one.next()
            #expect(step16 == nil)
        }
    }

    @Test func shufflePlaysEverySongOnceBeforeAnyRepeats() {
        for seed in UInt64(1)...20 {
            var (order, ids) = order(17, mode: .shuffle, seed: seed)
            var round: [Int64] = [order.current!]
            for _ in 1..<17 { round.append(order.next(ended: true)!) }
            #expect(Set(round) == Set(ids), "seed \(seed)")
            // The next round covers them all again, without playing the last one twice in a row.
            let last = round.last!
            var second: [Int64] = []
            for _ in 0..<16 { second.append(order.next()!) }
            #expect(second.first != last)
            #expect(Set(second).count == 16)
            #expect(!second.contains(last))
        }
    }

    @Test func shufflePreviousWalksBackThroughWhatPlayed() {
        var (order, _) = order(10, mode: .shuffle, seed: 7)
        var played = [order.current!]
        for _ in 0..<5 { played.append(order.next()!) }
        for expected in played.reversed().dropFirst() {
            let step17 = order.previous()
            #expect(step17 == expected)
        }
        // Forward again retraces the same songs before drawing new ones.
        for expected in played.dropFirst() {
            let step18 = order.next()
            #expect(step18 == expected)
        }
        let fresh = order.next()!
        #expect(!played.contains(fresh))
    }

    @Test func upcomingIsWhatNextWillBe() {
        for mode in LoopMode.allCases {
            var (order, _) = order(6, mode: mode, seed: 3)
            for _ in 0..<15 {
                let peek = order.upcoming()
                let step19 = order.next(ended: true)
                #expect(step19 == peek)
            }
        }
    }

    @Test func removingTheCurrentSongPlaysTheNextOne() {
        var (order, ids) = order(4, start: 1)
        let step20 = order.remove(ids[1])
        #expect(step20)
        #expect(order.current == ids[2])
        let step21 = order.remove(ids[0])
        #expect(!step21)
        #expect(order.current == ids[2])
        let step22 = order.remove(ids[3])
        #expect(!step22)
        #expect(order.current == ids[2])
        #expect(order.entries == [ids[2]])

        var (wrap, wrapIDs) = self.order(3, start: 2)
        wrap.remove(wrapIDs[2])
        #expect(wrap.current == wrapIDs[0])

        var (shuffled, all) = self.order(8, mode: .shuffle, seed: 11)
        let first = shuffled.current!
        let second = shuffled.next()!
        let step23 = shuffled.remove(second)
        #expect(step23)
        let replacement = shuffled.current!
        #expect(replacement != second && all.contains(replacement))
        let step24 = shuffled.previous()
        #expect(step24 == first)
        var seen: Set<Int64> = [first, replacement]
        for _ in 0..<5 { seen.insert(shuffled.next()!) }
        #expect(!seen.contains(second))
    }

    @Test func insertNextPlaysNextInEveryMode() {
        for mode in LoopMode.allCases {
            var (order, _) = order(5, start: 2, mode: mode, seed: 5)
            let inserted = order.insertNext()
            let step25 = order.next()
            #expect(step25 == inserted, "\(mode)")
        }
        var (list, ids) = order(3, start: 0)
        let inserted = list.insertNext()
        #expect(list.entries == [ids[0], inserted, ids[1], ids[2]])
    }

    @Test func appendMoveAndClear() {
        var (order, ids) = order(3, start: 0, mode: .shuffle, seed: 2)
        let added = order.append(count: 2)
        var played: Set<Int64> = [order.current!]
        for _ in 0..<4 { played.insert(order.next(ended: true)!) }
        #expect(played == Set(ids + added))
        order.move(from: 0, to: 4)
        #expect(order.entries.last == ids[0])
        order.setMode(.list)
        order.clear()
        #expect(order.isEmpty && order.current == nil && order.next() == nil)
        let again = order.append(count: 1)
        #expect(order.current == again[0])
    }

    @Test func selectInShuffleStartsFromThere() {
        var (order, ids) = order(6, mode: .shuffle, seed: 9)
        let first = order.current!
        let picked = ids.first { $0 != first }!
        order.select(picked)
        #expect(order.current == picked)
        let step26 = order.previous()
        #expect(step26 == first)
        let step27 = order.next()
        #expect(step27 == picked)
        var rest: Set<Int64> = []
        for _ in 0..<4 { rest.insert(order.next()!) }
        #expect(rest.isDisjoint(with: [first, picked]))
    }

    /// The whole state, generator included, survives a save and a restore.
    @Test func aRestoredOrderContinuesExactly() throws {
        var (order, _) = order(30, mode: .shuffle, seed: 42)
        for _ in 0..<7 { order.next() }
        order.previous()
        let saved = try JSONEncoder().encode(order)
        var restored = try JSONDecoder().decode(PlayOrder.self, from: saved)
        #expect(restored == order)
        for _ in 0..<40 {
            let step28 = restored.next(ended: true)
            #expect(step28 == order.next(ended: true))
        }
    }
}
