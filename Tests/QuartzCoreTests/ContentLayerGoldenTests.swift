// One golden scene per property value of the content layers (exact match): shape caps, joins,
// fill rules, dashes, trims; text alignment and truncation; gradient types and locations.
// Each picture is small and centred on the one thing it shows.
@testable import QuartzCore
import TestSupport
import Testing
import Foundation

@Suite(.serialized) struct ContentLayerGoldenTests {
    let ink = CGColor(red: 0.1, green: 0.2, blue: 0.6, alpha: 1)
    let fill = CGColor(red: 0.95, green: 0.6, blue: 0.2, alpha: 1)

    /// An open zigzag stroked 8 points wide: shows caps at both ends and joins at three corners.
    func zigzag(_ configure: (CAShapeLayer) -> Void) -> CGImage {
        renderTree(80, 50) { root in
            let s = CAShapeLayer()
            s.frame = root.bounds
            let p = CGMutablePath()
            p.move(to: CGPoint(x: 10, y: 38)); p.addLine(to: CGPoint(x: 28, y: 12))
            p.addLine(to: CGPoint(x: 46, y: 38)); p.addLine(to: CGPoint(x: 68, y: 14))
            s.path = p
            s.fillColor = nil
            s.strokeColor = self.ink
            s.lineWidth = 8
            configure(s)
            root.addSublayer(s)
        }
    }

    @Test(arguments: [CAShapeLayerLineCap.butt, .round, .square])
    func lineCaps(_ cap: CAShapeLayerLineCap) {
        Golden.check("shape-cap-\(cap.rawValue)", zigzag { $0.lineCap = cap })
    }

    @Test(arguments: [CAShapeLayerLineJoin.miter, .round, .bevel])
    func lineJoins(_ join: CAShapeLayerLineJoin) {
        Golden.check("shape-join-\(join.rawValue)", zigzag { $0.lineJoin = join })
    }

    @Test func miterLimitBevelsSharpCorners() {
        Golden.check("shape-miter-limit-1", zigzag { $0.miterLimit = 1 })
    }

    @Test func dashesAndPhase() {
        Golden.check("shape-dash", zigzag { $0.lineDashPattern = [12, 6]; $0.lineWidth = 4 })
        Golden.check("shape-dash-phase", zigzag { $0.lineDashPattern = [12, 6]; $0.lineDashPhase = 9; $0.lineWidth = 4 })
    }

    @Test func strokeStartAndEnd() {
        Golden.check("shape-stroke-trim", zigzag { $0.strokeStart = 0.25; $0.strokeEnd = 0.8; $0.lineCap = .round })
    }

    @Test(arguments: [CAShapeLayerFillRule.nonZero, .evenOdd])
    func fillRules(_ rule: CAShapeLayerFillRule) {
        // A five-pointed star drawn in one stroke: its centre is inside for non-zero, a hole for even-odd.
        let image = renderTree(60, 60) { root in
            let s = CAShapeLayer()
            s.frame = root.bounds
            let p = CGMutablePath()
            for k in 0..<5 {
                let a = CGFloat(k) * 4 * .pi / 5 - .pi / 2
                let q = CGPoint(x: 30 + 26 * cos(a), y: 31 + 26 * sin(a))
                if k == 0 { p.move(to: q) } else { p.addLine(to: q) }
            }
            p.closeSubpath()
            s.path = p
            s.fillColor = self.fill
            s.fillRule = rule
            root.addSublayer(s)
        }
        Golden.check("shape-fill-\(rule == .evenOdd ? "even-odd" : "non-zero")", image)
        let centre = image.premultipliedPixel(x: 30, y: 31)
        #expect(rule == .evenOdd ? centre == 0xFFFF_FFFF : centre != 0xFFFF_FFFF)
    }

    @Test func curvesFillAndStrokeTogether() {
        let image = renderTree(70, 50) { root in
            let s = CAShapeLayer()
            s.frame = root.bounds
            let p = CGMutablePath()
            p.move(to: CGPoint(x: 8, y: 40))
            p.addCurve(to: CGPoint(x: 62, y: 40), control1: CGPoint(x: 12, y: -10), control2: CGPoint(x: 58, y: 70))
            p.addQuadCurve(to: CGPoint(x: 8, y: 40), control: CGPoint(x: 35, y: 60))
            s.path = p
            s.fillColor = self.fill
            s.strokeColor = self.ink
            s.lineWidth = 3
            root.addSublayer(s)
        }
        Golden.check("shape-curves", image)
    }

    @Test(arguments: [CATextLayerAlignmentMode.natural, .left, .right, .center, .justified])
    func textAlignment(_ mode: CATextLayerAlignmentMode) {
        let image = renderTree(120, 64) { root in
            let t = CATextLayer()
            t.frame = CGRect(x: 4, y: 4, width: 112, height: 56)
            t.foregroundColor = self.ink
            t.fontSize = 11
            t.isWrapped = true
            t.alignmentMode = mode
            t.string = "Layers align their lines: left, right, centred or justified."
            root.addSublayer(t)
        }
        Golden.check("text-align-\(mode.rawValue)", image)
    }

    @Test(arguments: [CATextLayerTruncationMode.none, .start, .middle, .end])
    func textTruncation(_ mode: CATextLayerTruncationMode) {
        let image = renderTree(120, 24) { root in
            let t = CATextLayer()
            t.frame = CGRect(x: 4, y: 4, width: 112, height: 16)
            t.foregroundColor = self.ink
            t.fontSize = 12
            t.truncationMode = mode
            t.string = "Core Animation for Linux, in Swift"
            root.addSublayer(t)
        }
        Golden.check("text-truncate-\(mode.rawValue)", image)
    }

    @Test(arguments: [CAGradientLayerType.axial, .radial, .conic])
    func gradientTypesWithLocations(_ type: CAGradientLayerType) {
        let image = renderTree(64, 64) { root in
            let g = CAGradientLayer()
            g.frame = CGRect(x: 4, y: 4, width: 56, height: 56)
            g.type = type
            g.colors = [self.fill, self.ink, CGColor(red: 0.2, green: 0.7, blue: 0.4, alpha: 1)]
            g.locations = [0.1, 0.5, 0.9]
            g.startPoint = CGPoint(x: 0.3, y: 0.4)
            g.endPoint = CGPoint(x: 0.9, y: 0.8)
            g.cornerRadius = 10
            root.addSublayer(g)
        }
        Golden.check("gradient-\(type.rawValue)-locations", image)
    }
}
