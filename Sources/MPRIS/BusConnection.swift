import CDBus
import Foundation
import Synchronization

/// A method call addressed to the service, decoded from libdbus into Swift values.
struct MethodCall: Sendable {
    var path: String
    /// Nil when the caller left it out, which D-Bus allows.
    var interface: String?
    var member: String
    var signature: String
    /// Nil when an argument had a type the service never accepts (a file descriptor).
    var arguments: [DBusValue]?
}

/// What the service answers to a method call.
enum CallOutcome: Sendable, Equatable {
    case reply([DBusValue])
    case error(name: String, message: String)
}

/// One private connection to a message bus, and the thread that reads it and dispatches calls to `handler`.
///
/// The only place that touches libdbus. Replies are sent from the loop thread; signals may be sent from any
/// thread (libdbus is thread-safe after `dbus_threads_init_default`), and wait at most one poll timeout.
final class BusConnection: @unchecked Sendable {
    // @unchecked: `connection` is set once; the loop thread uses it until it signals `finished`, other threads
    // use it only while holding `closed` unset, and `close()` frees it only after both have stopped.
    private let connection: OpaquePointer
    private let handler: @Sendable (MethodCall) -> CallOutcome
    private let closed = Mutex(false)
    private let stopRequested = Atomic(false)
    private let loopStarted = Atomic(false)
    private let finished = DispatchSemaphore(value: 0)
    private let loopExited = Atomic(false)
    /// Set when `close()` ran inside a dispatch on the loop thread: the loop frees the connection as it ends.
    private let freeOnLoopExit = Atomic(false)
    /// The loop thread's id, so that `close()` called from it does not wait for itself.
    private let loopThreadID = Mutex<pthread_t?>(nil)
    /// The bus-assigned name (":1.42").
    let uniqueName: String

    /// How long the loop waits for traffic before it looks at `stopRequested` again, in milliseconds.
    private static let pollTimeout: Int32 = 100

    private init(
        connection: OpaquePointer, uniqueName: String,
        handler: @escaping @Sendable (MethodCall) -> CallOutcome
    ) {
        self.connection = connection
        self.uniqueName = uniqueName
        self.handler = handler
    }

    deinit { close() }

    /// Connects and says Hello to the bus at `address`; nil when there is no bus there.
    static func open(address: String, handler: @escaping @Sendable (MethodCall) -> CallOutcome)
        -> BusConnection?
    {
        _ = dbus_threads_init_default()
        var error = DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        // A private connection, so that closing it is ours to do and no other library shares it.
        guard let connection = dbus_connection_open_private(address, &error) else { return nil }
        // The default for bus connections is to _exit() the process when the bus goes away.
        dbus_connection_set_exit_on_disconnect(connection, 0)
        guard dbus_bus_register(connection, &error) != 0, let unique = dbus_bus_get_unique_name(connection)
        else {
            dbus_connection_close(connection)
            dbus_connection_unref(connection)
            return nil
        }
        return BusConnection(connection: connection, uniqueName: String(cString: unique), handler: handler)
    }

    /// Routes method calls for `path` to the handler.
    func register(path: String) -> Bool {
        guard dbus_validate_path(path, nil) != 0 else { return false }
        var vtable = DBusObjectPathVTable()
        vtable.message_function = handleMessage
        var error = DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        let context = Unmanaged.passUnretained(self).toOpaque()
        return dbus_connection_try_register_object_path(connection, path, &vtable, context, &error) != 0
    }

    /// Asks the bus for `name` without queueing; true when this connection is now its primary owner.
    /// Blocks for one round trip, so call it before `startLoop()`.
    func requestName(_ name: String) -> Bool {
        guard dbus_validate_bus_name(name, nil) != 0 else { return false }
        var error = DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        let result = dbus_bus_request_name(connection, name, UInt32(DBUS_NAME_FLAG_DO_NOT_QUEUE), &error)
        return result == DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER
    }

    /// Starts the thread that reads the connection and dispatches calls; once.
    func startLoop() {
        guard !loopStarted.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let thread = Thread { [self] in
            loopThreadID.withLock { $0 = pthread_self() }
            // read_write returns false once the bus has gone away and its Disconnected message was dispatched.
            while !stopRequested.load(ordering: .acquiring),
                dbus_connection_read_write(connection, Self.pollTimeout) != 0
            {
                while dbus_connection_dispatch(connection) == DBUS_DISPATCH_DATA_REMAINS {}
            }
            loopExited.store(true, ordering: .releasing)
            if freeOnLoopExit.load(ordering: .acquiring) {
                dbus_connection_close(connection)
                dbus_connection_unref(connection)
            }
            finished.signal()
        }
        thread.name = "MPRIS D-Bus"
        thread.start()
    }

    /// Sends a signal from `path`; does nothing once closed or when the arguments cannot be marshalled.
    func emitSignal(path: String, interface: String, member: String, arguments: [DBusValue]) {
        closed.withLock { isClosed in
            guard !isClosed, let message = dbus_message_new_signal(path, interface, member) else { return }
            defer { dbus_message_unref(message) }
            guard Self.append(arguments, to: message) else { return }
            _ = dbus_connection_send(connection, message, nil)
        }
    }

    /// Releases `names`, stops the loop thread and closes the connection; idempotent.
    func close(releasing names: [String] = []) {
        let first = closed.withLock { isClosed in
            defer { isClosed = true }
            return !isClosed
        }
        guard first else { return }
        stopRequested.store(true, ordering: .releasing)
        let onLoopThread = loopThreadID.withLock { id in
            id.map { pthread_equal($0, pthread_self()) != 0 } ?? false
        }
        if loopStarted.load(ordering: .acquiring), !onLoopThread {
            finished.wait()
        }
        // Closing would drop the names too; releasing them first tells watchers in order, without a round trip.
        for name in names {
            guard
                let message = dbus_message_new_method_call(
                    "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "ReleaseName")
            else { continue }
            dbus_message_set_no_reply(message, 1)
            if Self.append([.string(name)], to: message) {
                _ = dbus_connection_send(connection, message, nil)
            }
            dbus_message_unref(message)
        }
        if dbus_connection_get_is_connected(connection) != 0 {
            dbus_connection_flush(connection)
        }
        if onLoopThread, !loopExited.load(ordering: .acquiring) {
            // Called from a dispatch on the loop thread: the loop still uses the connection, so it frees it.
            freeOnLoopExit.store(true, ordering: .releasing)
            return
        }
        dbus_connection_close(connection)
        dbus_connection_unref(connection)
    }

    /// Decodes and answers one message; runs on the loop thread.
    fileprivate func handle(_ message: OpaquePointer) -> DBusHandlerResult {
        guard dbus_message_get_type(message) == DBusType.methodCall,
            let member = dbus_message_get_member(message)
        else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
        let call = MethodCall(
            path: dbus_message_get_path(message).map { String(cString: $0) } ?? "",
            interface: dbus_message_get_interface(message).map { String(cString: $0) },
            member: String(cString: member),
            signature: dbus_message_get_signature(message).map { String(cString: $0) } ?? "",
            arguments: Self.arguments(of: message))
        let outcome = handler(call)
        guard dbus_message_get_no_reply(message) == 0 else { return DBUS_HANDLER_RESULT_HANDLED }
        var reply: OpaquePointer?
        switch outcome {
        case .reply(let values):
            reply = dbus_message_new_method_return(message)
            if let built = reply, !Self.append(values, to: built) {
                // A value we could not marshal is our bug; the caller still deserves an answer.
                dbus_message_unref(built)
                reply = dbus_message_new_error(message, "org.freedesktop.DBus.Error.Failed", "Internal error")
            }
        case .error(let name, let text):
            let safeName =
                dbus_validate_error_name(name, nil) != 0 ? name : "org.freedesktop.DBus.Error.Failed"
            reply = dbus_message_new_error(message, safeName, text)
        }
        if let reply {
            _ = dbus_connection_send(connection, reply, nil)
            dbus_message_unref(reply)
        }
        return DBUS_HANDLER_RESULT_HANDLED
    }

    // MARK: Marshalling

    private static func arguments(of message: OpaquePointer) -> [DBusValue]? {
        var iter = DBusMessageIter()
        guard dbus_message_iter_init(message, &iter) != 0 else { return [] }
        var values: [DBusValue] = []
        repeat {
            guard let value = read(&iter) else { return nil }
            values.append(value)
        } while dbus_message_iter_next(&iter) != 0
        return values
    }

    private static func read(_ iter: UnsafeMutablePointer<DBusMessageIter>) -> DBusValue? {
        func basic<T>(_ initial: T) -> T {
            var value = initial
            withUnsafeMutablePointer(to: &value) { dbus_message_iter_get_basic(iter, $0) }
            return value
        }
        func text() -> String {
            let pointer: UnsafePointer<CChar>? = basic(nil)
            return pointer.map { String(cString: $0) } ?? ""
        }
        func children() -> [DBusValue]? {
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(iter, &sub)
            var values: [DBusValue] = []
            while dbus_message_iter_get_arg_type(&sub) != DBusType.invalid {
                guard let value = read(&sub) else { return nil }
                values.append(value)
                _ = dbus_message_iter_next(&sub)
            }
            return values
        }
        switch dbus_message_iter_get_arg_type(iter) {
        case DBusType.byte: return .byte(basic(0))
        case DBusType.boolean: return .boolean(basic(dbus_bool_t(0)) != 0)
        case DBusType.int16: return .int16(basic(0))
        case DBusType.uint16: return .uint16(basic(0))
        case DBusType.int32: return .int32(basic(0))
        case DBusType.uint32: return .uint32(basic(0))
        case DBusType.int64: return .int64(basic(0))
        case DBusType.uint64: return .uint64(basic(0))
        case DBusType.double: return .double(basic(0))
        case DBusType.string: return .string(text())
        case DBusType.objectPath: return .objectPath(text())
        case DBusType.signature: return .signature(text())
        case DBusType.array:
            guard let raw = dbus_message_iter_get_signature(iter) else { return nil }
            let signature = String(cString: raw)
            dbus_free(raw)
            guard let items = children() else { return nil }
            return .array(elementSignature: String(signature.dropFirst()), items)
        case DBusType.variant:
            guard let items = children(), items.count == 1 else { return nil }
            return .variant(items[0])
        case DBusType.structure:
            return children().map { .structure($0) }
        case DBusType.dictEntry:
            guard let items = children(), items.count == 2 else { return nil }
            return .dictEntry(items[0], items[1])
        default:
            // Unix file descriptors: reading one would dup it, and no MPRIS call takes them.
            return nil
        }
    }

    private static func append(_ values: [DBusValue], to message: OpaquePointer) -> Bool {
        var iter = DBusMessageIter()
        dbus_message_iter_init_append(message, &iter)
        return values.allSatisfy { append($0, to: &iter) }
    }

    /// Writes one value. libdbus aborts the process on malformed input, so everything is validated first.
    private static func append(_ value: DBusValue, to iter: UnsafeMutablePointer<DBusMessageIter>) -> Bool {
        func basic<T>(_ type: Int32, _ initial: T) -> Bool {
            var copy = initial
            return withUnsafePointer(to: &copy) { dbus_message_iter_append_basic(iter, type, $0) != 0 }
        }
        func text(_ type: Int32, _ string: String) -> Bool {
            string.withCString { pointer in
                var copy: UnsafePointer<CChar>? = pointer
                return dbus_message_iter_append_basic(iter, type, &copy) != 0
            }
        }
        func container(_ type: Int32, _ signature: String?, _ items: [DBusValue]) -> Bool {
            var sub = DBusMessageIter()
            guard dbus_message_iter_open_container(iter, type, signature, &sub) != 0 else { return false }
            for item in items where !append(item, to: &sub) {
                dbus_message_iter_abandon_container(iter, &sub)
                return false
            }
            return dbus_message_iter_close_container(iter, &sub) != 0
        }
        switch value {
        case .byte(let v): return basic(DBusType.byte, v)
        case .boolean(let v): return basic(DBusType.boolean, dbus_bool_t(v ? 1 : 0))
        case .int16(let v): return basic(DBusType.int16, v)
        case .uint16(let v): return basic(DBusType.uint16, v)
        case .int32(let v): return basic(DBusType.int32, v)
        case .uint32(let v): return basic(DBusType.uint32, v)
        case .int64(let v): return basic(DBusType.int64, v)
        case .uint64(let v): return basic(DBusType.uint64, v)
        case .double(let v): return basic(DBusType.double, v)
        case .string(let v):
            // A C string ends at the first NUL; D-Bus strings may not contain one anyway.
            return text(DBusType.string, v)
        case .objectPath(let v):
            guard dbus_validate_path(v, nil) != 0 else { return false }
            return text(DBusType.objectPath, v)
        case .signature(let v):
            guard dbus_signature_validate(v, nil) != 0 else { return false }
            return text(DBusType.signature, v)
        case .array(let element, let items):
            guard dbus_signature_validate_single("a" + element, nil) != 0,
                items.allSatisfy({ $0.signature == element })
            else { return false }
            return container(DBusType.array, element, items)
        case .variant(let inner):
            guard dbus_signature_validate_single(inner.signature, nil) != 0 else { return false }
            return container(DBusType.variant, inner.signature, [inner])
        case .structure(let fields):
            guard !fields.isEmpty else { return false }
            return container(DBusType.structure, nil, fields)
        case .dictEntry(let key, let value):
            guard dbus_type_is_basic(Int32(key.signature.utf8.first ?? 0)) != 0, key.signature.count == 1
            else {
                return false
            }
            return container(DBusType.dictEntry, nil, [key, value])
        }
    }
}

/// libdbus's type codes; its headers define them as casts (`((int) 's')`), which Swift does not import.
private enum DBusType {
    static let invalid: Int32 = 0
    static let byte = code("y")
    static let boolean = code("b")
    static let int16 = code("n")
    static let uint16 = code("q")
    static let int32 = code("i")
    static let uint32 = code("u")
    static let int64 = code("x")
    static let uint64 = code("t")
    static let double = code("d")
    static let string = code("s")
    static let objectPath = code("o")
    static let signature = code("g")
    static let array = code("a")
    static let variant = code("v")
    static let structure = code("r")
    static let dictEntry = code("e")
    static let methodCall: Int32 = 1

    private static func code(_ character: Unicode.Scalar) -> Int32 { Int32(character.value) }
}

/// libdbus's object-path callback: a plain C function that finds its connection through the context pointer.
private func handleMessage(
    _ connection: OpaquePointer?, _ message: OpaquePointer?, _ context: UnsafeMutableRawPointer?
) -> DBusHandlerResult {
    guard let message, let context else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
    return Unmanaged<BusConnection>.fromOpaque(context).takeUnretainedValue().handle(message)
}
