// Every fuzz target over its checked-in corpus (Fuzz/Corpus/TARGET) and the inputs that once
// crashed it (Tests/FuzzTargetsTests/Regressions/TARGET): each must return — the property the
// targets state ("any bytes: no crash, no hang, no unbounded memory"). `make fuzz` grows the
// corpora; a crash it finds is minimised and its input checked in under Regressions.
import Foundation
import FuzzTargets
import Testing
import TestSupport

@Suite struct CorpusTests {
    static func inputs(_ target: FuzzTarget) -> [URL] {
        let root = Golden.packageRoot
        return ["Fuzz/Corpus/\(target.rawValue)", "Tests/FuzzTargetsTests/Regressions/\(target.rawValue)"].flatMap { folder -> [URL] in
            let dir = root.appendingPathComponent(folder)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
            return names.filter { !$0.hasPrefix(".") }.sorted().map { dir.appendingPathComponent($0) }
        }
    }

    @Test(arguments: FuzzTarget.allCases) func theCorpusRuns(_ target: FuzzTarget) throws {
        let files = Self.inputs(target)
        #expect(files.count >= 4, "the \(target) corpus is missing")
        for file in files { target.run([UInt8](try Data(contentsOf: file))) }
    }

    @Test func emptyAndTinyInputsRun() {
        for target in FuzzTarget.allCases { for bytes in [[], [0], [255], [UInt8](repeating: 0xFF, count: 64)] { target.run(bytes) } }
    }
}
