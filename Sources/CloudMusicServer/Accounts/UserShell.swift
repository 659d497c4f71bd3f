import Foundation
import MusicCore

/// `cloudmusic-server user ...`: adds, lists, disables and re-keys accounts from the shell.
struct UserShell {
    let accounts: AccountService
    let passwords: AppPasswordService

    func run(_ command: UserCommand) throws {
        switch command {
        case .add(let account, let nickname, let admin):
            let identifier = try Self.identifier(account)
            let nickname = try AccountRules.nickname(nickname)
            let password = try AccountRules.password(try Self.readPassword())
            let user = try accounts.createUser(
                identifier: identifier, password: password, nickname: nickname, admin: admin)
            print("Added user \(user.id) '\(user.nickname)' (\(user.role)).")
        case .list:
            var page = 1
            print("id\trole\tdisabled\taccount\tnickname")
            while true {
                let users = try accounts.users(paging: Paging(page: page, size: 100))
                for user in users.data {
                    print(
                        "\(user.id)\t\(user.role ?? "")\t\(user.disabled == true ? "yes" : "no")\t"
                            + "\(user.phone ?? user.email ?? "")\t\(user.nickname)")
                }
                guard let next = users.next else { break }
                page = next
            }
        case .disable(let account), .enable(let account):
            let user = try find(account)
            let disable = command == .disable(account: account)
            try accounts.setDisabled(id: user.id, disabled: disable)
            print("\(disable ? "Disabled" : "Enabled") user \(user.id) '\(user.nickname)'.")
        case .passwd(let account):
            let user = try find(account)
            let password = try AccountRules.password(try Self.readPassword())
            try accounts.setPassword(id: user.id, password: password)
            print("Set a new password for user \(user.id) '\(user.nickname)'; their sessions have ended.")
        case .delete(let account):
            let user = try find(account)
            try accounts.deleteUser(id: user.id)
            print("Deleted user \(user.id) '\(user.nickname)' with their sheets, history and sessions.")
        case .appPassword(let account, let name):
            let user = try find(account)
            let made = try passwords.create(userID: user.id, name: name, by: nil)
            print(
                "App password '\(made.name)' for \(made.username) (shown only now; revoke it in the settings):"
            )
            print(made.password)
        }
    }

    private func find(_ account: String) throws -> AccountStore.UserRecord {
        let found: AccountStore.UserRecord?
        if account.count <= 6, let id = Int64(account) {
            found = try accounts.userRecord(id: id)
        } else {
            found = try accounts.userRecord(identifier: try Self.identifier(account))
        }
        guard let found else { throw UsageError(message: "No user is called '\(account)'.") }
        return found
    }

    static func identifier(_ account: String) throws -> AccountRules.Identifier {
        account.contains("@")
            ? .email(try AccountRules.email(account)) : .phone(try AccountRules.phone(account))
    }

    /// From the terminal without echo (asked twice), or else the first line of standard input.
    static func readPassword() throws -> String {
        if isatty(STDIN_FILENO) != 0 {
            guard let first = getpass("Password: ").map({ String(cString: $0) }),
                let second = getpass("Password again: ").map({ String(cString: $0) })
            else { throw UsageError(message: "Could not read a password from the terminal.") }
            guard first == second else { throw UsageError(message: "The two passwords differ. Try again.") }
            return first
        }
        guard let line = readLine(strippingNewline: true), !line.isEmpty else {
            throw UsageError(
                message: "Give the password on standard input, e.g. printf '%s\\n' \"$PASSWORD\" | ...")
        }
        return line
    }
}
