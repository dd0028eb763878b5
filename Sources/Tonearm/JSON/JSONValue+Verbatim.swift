extension JSONValue {
    /// Parses the first JSON value in `json` keeping it as written: numbers hold their text (`1.50`
    /// stays `"1.50"`), object members keep their order and duplicates. What follows the value is not
    /// read, as Jackson (and so WireMock) does not read it.
    ///
    /// For comparisons that must see how a number was written (``JSONComparison``); canonical
    /// comparisons and hashing want ``init(parsing:)``.
    public init(parsingVerbatim json: [UInt8]) throws(JSONSyntaxError) {
        let result: Result<JSONValue, JSONSyntaxError> = json.withUnsafeBufferPointer { buffer in
            var reader = JSONReader(buffer, options: JSONReader.Options(skipsByteOrderMark: true))
            do throws(JSONSyntaxError) {
                return .success(try JSONValue.read(reader.value(), from: &reader))
            } catch {
                return .failure(error)
            }
        }
        self = try result.get()
    }
}
