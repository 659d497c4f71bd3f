import CloudMusicTUI
import Foundation

let started = ContinuousClock.now
exit(CommandLine.run(CommandLine.arguments, startedAt: started))
