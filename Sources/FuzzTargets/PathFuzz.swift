import CoreGraphics
import Foundation

/// Builds a path from an operation stream (up to `maxOperations`), then fills, strokes, dashes,
/// hit-tests and measures it. Numbers come from FuzzInput: often NaN, infinite, tiny or huge.
enum PathFuzz {
    static let maxOperations = 256
    /// `addPath` of the path onto itself doubles it: a few doublings reach every code path, while
    /// twenty reach the element budget (tested apart, in BudgetTests) and make each run take
    /// seconds, which starves the fuzzer of executions.
    static let maxSelfCopies = 3

    static func run(_ data: [UInt8]) {
        var input = FuzzInput(data)
        let path = CGMutablePath()
        var count = 0, selfCopies = 0
        while input.hasMore, count < maxOperations {
            count += 1
            switch input.int(11) {
            case 0: path.move(to: input.point())
            case 1: path.addLine(to: input.point())
            case 2: path.addQuadCurve(to: input.point(), control: input.point())
            case 3: path.addCurve(to: input.point(), control1: input.point(), control2: input.point())
            case 4: path.addArc(center: input.point(), radius: input.number(), startAngle: input.number(), endAngle: input.number(), clockwise: input.bool())
            case 5: path.addRelativeArc(center: input.point(), radius: input.number(), startAngle: input.number(), delta: input.number())
            case 6: path.addRect(input.rect())
            case 7: path.addEllipse(in: input.rect())
            case 8: path.addRoundedRect(in: input.rect(), cornerWidth: input.number(), cornerHeight: input.number())
            case 9: path.closeSubpath()
            default:
                let t = CGAffineTransform(a: input.number(), b: input.number(), c: input.number(), d: input.number(), tx: input.coordinate(), ty: input.coordinate())
                if selfCopies < maxSelfCopies { selfCopies += 1; path.addPath(path.copy()!, transform: t) }
            }
        }
        _ = path.boundingBox
        _ = path.boundingBoxOfPath
        for _ in 0..<4 { _ = path.contains(input.point(), using: input.bool() ? .evenOdd : .winding) }
        let width = input.number()
        let lengths = (0..<input.int(5)).map { _ in input.number() }
        let stroked = path.copy(strokingWithWidth: width, lineCap: .round, lineJoin: input.bool() ? .miter : .round, miterLimit: input.number())
        let dashed = path.copy(dashingWithPhase: input.number(), lengths: lengths)
        guard let ctx = fuzzContext() else { return }
        ctx.addPath(path)
        ctx.fillPath(using: input.bool() ? .evenOdd : .winding)
        ctx.setLineWidth(width)
        ctx.setLineDash(phase: input.number(), lengths: lengths)
        ctx.addPath(path)
        ctx.strokePath()
        ctx.addPath(stroked)
        ctx.addPath(dashed)
        ctx.clip()
        ctx.fill(CGRect(x: 0, y: 0, width: 64, height: 64))
    }
}
