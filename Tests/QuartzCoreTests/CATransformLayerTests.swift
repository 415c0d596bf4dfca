// CATransformLayer: sublayers keep their 3D places and are painted back to front whatever their
// order in `sublayers`; the face nearest the viewer is the one drawn and hit at the centre; the
// transform layer itself is never hit and draws nothing of its own.
@testable import QuartzCore
import TestSupport
import Testing

@Suite(.serialized) struct CATransformLayerTests {
    static let faceColors: [CGColor] = [
        CGColor(red: 1, green: 0, blue: 0, alpha: 1), CGColor(red: 0, green: 1, blue: 0, alpha: 1),
        CGColor(red: 0, green: 0, blue: 1, alpha: 1), CGColor(red: 1, green: 1, blue: 0, alpha: 1),
        CGColor(red: 0, green: 1, blue: 1, alpha: 1), CGColor(red: 1, green: 0, blue: 1, alpha: 1),
    ]
    static let words: [UInt32] = [0xFFFF_0000, 0xFF00_FF00, 0xFF00_00FF, 0xFFFF_FF00, 0xFF00_FFFF, 0xFFFF_00FF]

    /// Six 60-point faces of a cube: front, back, right, left, top, bottom (in that order).
    static func faces() -> [CALayer] {
        let placements: [CATransform3D] = [
            CATransform3DMakeTranslation(0, 0, 30),
            CATransform3DTranslate(CATransform3DMakeRotation(.pi, 0, 1, 0), 0, 0, 30),
            CATransform3DTranslate(CATransform3DMakeRotation(.pi / 2, 0, 1, 0), 0, 0, 30),
            CATransform3DTranslate(CATransform3DMakeRotation(-.pi / 2, 0, 1, 0), 0, 0, 30),
            CATransform3DTranslate(CATransform3DMakeRotation(.pi / 2, 1, 0, 0), 0, 0, 30),
            CATransform3DTranslate(CATransform3DMakeRotation(-.pi / 2, 1, 0, 0), 0, 0, 30),
        ]
        return placements.enumerated().map { i, t in
            let f = CALayer()
            f.bounds = CGRect(x: 0, y: 0, width: 60, height: 60)
            f.position = CGPoint(x: 50, y: 50)
            f.backgroundColor = faceColors[i]
            f.transform = t
            return f
        }
    }

    /// A cube turned by `turn`, in a container with perspective; `order` permutes the faces.
    func cube(_ turn: CATransform3D, order: [Int] = Array(0..<6), transformLayer: Bool = true) -> (CGImage, CALayer, CALayer) {
        let holder = CALayer()
        let cube: CALayer = transformLayer ? CATransformLayer() : CALayer()
        let image = renderTree(100, 100) { root in
            holder.frame = root.bounds
            var p = CATransform3DIdentity
            p.m34 = -1 / 300
            holder.sublayerTransform = p
            cube.frame = root.bounds
            cube.transform = turn
            let faces = Self.faces()
            for i in order { cube.addSublayer(faces[i]) }
            holder.addSublayer(cube)
            root.addSublayer(holder)
        }
        return (image, holder, cube)
    }

    @Test func theNearestFaceIsDrawnWhateverTheOrder() {
        let turns: [(CATransform3D, Int)] = [
            (CATransform3DIdentity, 0),                                   // front
            (CATransform3DMakeRotation(.pi, 0, 1, 0), 1),                 // back
            (CATransform3DMakeRotation(.pi / 2 + 0.1, 0, 1, 0), 3),       // a quarter turn brings a side face forward
            (CATransform3DMakeRotation(-.pi / 2 - 0.1, 0, 1, 0), 2),
        ]
        for (turn, face) in turns {
            let (a, _, _) = cube(turn)
            let (b, _, _) = cube(turn, order: [5, 3, 1, 0, 2, 4])
            #expect(a.premultipliedPixel(x: 50, y: 50) == Self.words[face])
            var same = true
            for y in 0..<100 { for x in 0..<100 where a.premultipliedPixel(x: x, y: y) != b.premultipliedPixel(x: x, y: y) { same = false } }
            #expect(same)
        }
        // A plain layer flattens its sublayers and paints them in order: the last face covers.
        let (flat, _, _) = cube(CATransform3DIdentity, transformLayer: false)
        #expect(flat.premultipliedPixel(x: 50, y: 50) != Self.words[0])
    }

    @Test func twoTurnedCubesGolden() {
        let turn = CATransform3DRotate(CATransform3DMakeRotation(.pi / 4, 1, 0, 0), .pi / 4, 0, 1, 0)
        let (image, _, _) = cube(turn)
        Golden.check("transform-layer-cube", image)
        // Three faces show around the near corner; the far three do not.
        let shown = Set((0..<100).flatMap { y in (0..<100).map { x in image.premultipliedPixel(x: x, y: y) } })
        #expect(Self.words.filter { shown.contains($0) }.count == 3)
    }

    @Test func hitTestingFindsTheNearestFaceNeverTheTransformLayer() {
        let (_, holder, cube) = cube(CATransform3DMakeRotation(.pi, 0, 1, 0))
        let hit = holder.hitTest(CGPoint(x: 50, y: 50))
        #expect(hit === cube.sublayers?.first { $0.backgroundColor == Self.faceColors[1] })
        #expect(holder.hitTest(CGPoint(x: 2, y: 2)) === holder)     // outside the cube: the container, not the transform layer
        // Background and border of the transform layer itself are not drawn.
        let t = CATransformLayer()
        let image = renderTree(20, 20) { root in
            t.frame = root.bounds
            t.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
            t.borderWidth = 3
            root.addSublayer(t)
        }
        #expect(countPixels(image, 0xFFFF_FFFF) == 400)
    }
}
