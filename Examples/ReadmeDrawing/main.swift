import CoreGraphics
import Foundation
import ImageIO

let ctx = CGContext(data: nil, width: 200, height: 100, bitsPerComponent: 8, bytesPerRow: 0,
                    space: CGColorSpaceCreateDeviceRGB(),
                    bitmapInfo: CGImageAlphaInfo.premultipliedFirst.rawValue | CGBitmapInfo.byteOrder32Little.rawValue)!
ctx.setFillColor(CGColor(red: 1, green: 0.5, blue: 0, alpha: 1))
ctx.fillEllipse(in: CGRect(x: 10, y: 10, width: 80, height: 80))   // y up, origin bottom-left
ctx.setStrokeColor(CGColor(gray: 0, alpha: 1))
ctx.setLineWidth(4)
ctx.stroke(CGRect(x: 110, y: 10, width: 80, height: 80))

let url = URL(fileURLWithPath: CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "drawing.png")
let destination = CGImageDestinationCreateWithURL(url as CFURL, kUTTypePNG, 1, nil)!
CGImageDestinationAddImage(destination, ctx.makeImage()!, nil)
print(CGImageDestinationFinalize(destination) ? "wrote \(url.path)" : "could not write \(url.path)")
