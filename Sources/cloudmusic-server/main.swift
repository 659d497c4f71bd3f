import CloudMusicServer
import Foundation

exit(
    ServerMain.run(
        arguments: Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
)
