@testable import TonearmServer

/// Where the rewriter's output differs from its input: the one difference allowed is a method token
/// replaced by `POST` (each a noted method, in order), and the output may stop short of the input by a
/// method token the rewriter still holds for the next read.
///
/// Found greedily: where the next noted method and a space start the input and `POST ` starts the output,
/// that is the replacement. Taking it is never wrong: a noted method is a token other than `POST`, so
/// copying byte for byte from there would meet a difference within its length plus one.
struct RewriteAlignment {
    struct Replacement {
        /// Where the method starts in the input, and where its `POST` starts in the output.
        var inputOffset: Int
        var outputOffset: Int
        var method: [UInt8]
    }

    let replacements: [Replacement]
    /// Where the method token the rewriter holds begins in the input (the input's length when none).
    let heldFrom: Int

    init(input: [UInt8], output: [UInt8], methods: [[UInt8]]) {
        var replacements: [Replacement] = []
        var inputOffset = 0
        var outputOffset = 0
        while outputOffset < output.count {
            if replacements.count < methods.count {
                let method = methods[replacements.count]
                if Self.has(method + [UInt8(ascii: " ")], in: input, at: inputOffset),
                    Self.has(Array("POST ".utf8), in: output, at: outputOffset)
                {
                    replacements.append(Replacement(inputOffset: inputOffset, outputOffset: outputOffset, method: method))
                    inputOffset += method.count
                    outputOffset += 4
                    continue
                }
            }
            guard inputOffset < input.count, input[inputOffset] == output[outputOffset] else {
                violated("output byte \(outputOffset) is not input byte \(inputOffset) nor a noted method replaced: "
                    + "input from there \(visible(input[min(inputOffset, input.count)...])), output \(visible(output[outputOffset...])); "
                    + "\(replacements.count) of \(methods.count) noted methods found before")
            }
            inputOffset += 1
            outputOffset += 1
        }
        guard replacements.count == methods.count else {
            violated("\(methods.count) methods noted, \(replacements.count) replaced in the output; the next noted: \(visible(methods[replacements.count][...]))")
        }
        let held = input[inputOffset...]
        guard held.count <= CustomMethodRewriter.longestMethod, held.allSatisfy(isTokenCharacter) else {
            violated("the output stops at input byte \(inputOffset), before \(visible(held)), which is not a method token held back")
        }
        self.replacements = replacements
        heldFrom = inputOffset
    }

    /// The input up to the held token, with each replaced method replaced by `method` instead.
    func replacing(with method: String, in input: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        var copied = 0
        for replacement in replacements {
            result += input[copied..<replacement.inputOffset]
            result += Array(method.utf8)
            copied = replacement.inputOffset + replacement.method.count
        }
        result += input[copied..<heldFrom]
        return result
    }

    private static func has(_ prefix: [UInt8], in bytes: [UInt8], at offset: Int) -> Bool {
        bytes.count - offset >= prefix.count && bytes[offset..<offset + prefix.count].elementsEqual(prefix)
    }
}

/// RFC 9110's `tchar`, written here from the RFC rather than taken from the rewriter.
func isTokenCharacter(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
        true
    default:
        Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
    }
}

/// Bytes as a Swift string literal would show them, for failure messages.
func visible(_ bytes: ArraySlice<UInt8>) -> String {
    "\"" + bytes.prefix(200).map { byte -> String in
        switch byte {
        case UInt8(ascii: "\r"): "\\r"
        case UInt8(ascii: "\n"): "\\n"
        case UInt8(ascii: "\""): "\\\""
        case 0x20..<0x7f: String(UnicodeScalar(byte))
        default: "\\x" + (byte < 16 ? "0" : "") + String(byte, radix: 16)
        }
    }.joined() + (bytes.count > 200 ? "…" : "") + "\""
}

/// Ends the run as a finding: libFuzzer saves the input that broke the invariant.
func violated(_ invariant: String) -> Never {
    fatalError("FuzzMethodRewriter: \(invariant)")
}
