// The project's fuzz driver.
// - `make fuzz` builds it with libFuzzer and AddressSanitizer (-DFUZZING): libFuzzer's own main
//   runs, calling LLVMFuzzerTestOneInput for the target named by FUZZ_TARGET.
// - A plain build replays inputs: `fuzz TARGET FILE|DIR...` runs the target on each file.
import Foundation
import FuzzTargets

/// The target libFuzzer drives (FUZZ_TARGET); fuzzing without one is a usage error.
let fuzzTarget: FuzzTarget? = FuzzTarget(rawValue: ProcessInfo.processInfo.environment["FUZZ_TARGET"] ?? "")

/// libFuzzer's entry point: one input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let target = fuzzTarget else {
        let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: "|")
        FileHandle.standardError.write(Data("fuzz: set FUZZ_TARGET to \(names)\n".utf8))
        exit(2)
    }
    target.run(size == 0 || data == nil ? [] : Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

#if !FUZZING
@main
enum FuzzMain {
    static func main() {
        let args = CommandLine.arguments
        guard args.count >= 2, let target = FuzzTarget(rawValue: args[1]) else {
            let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: "|")
            FileHandle.standardError.write(Data("usage: fuzz \(names) FILE|DIR...\n".utf8))
            exit(2)
        }
        var files: [String] = []
        for path in args.dropFirst(2) {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
                files += names.filter { !$0.hasPrefix(".") }.sorted().map { path + "/" + $0 }
            } else {
                files.append(path)
            }
        }
        for file in files {
            guard let data = FileManager.default.contents(atPath: file) else { continue }
            target.run([UInt8](data))
        }
        print("fuzz \(target.rawValue): replayed \(files.count) inputs")
    }
}
#endif
