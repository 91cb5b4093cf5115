public import HTTPTypes
public import SluiceCore

extension HTTPFields {
    /// The fields of Sluice headers, in order, repeated fields kept.
    /// - Throws: `.invalidRequest` for a name that is not an HTTP token, or a value swift-http-types
    ///   would have to change (a CR, LF or NUL, which it turns into spaces): a conversion never
    ///   alters a field silently.
    public init(_ headers: HTTPHeaders) throws(SluiceError) {
        self.init()
        for field in headers {
            guard let name = HTTPField.Name(field.name) else {
                throw SluiceError(kind: .invalidRequest, message: "'\(field.name)' is not an HTTP field name (a token, RFC 9110 section 5.1)")
            }
            let converted = HTTPField(name: name, value: field.value)
            guard converted.value.utf8.elementsEqual(field.value.utf8) else {
                throw SluiceError(kind: .invalidRequest, message: "the value of '\(field.name)' has characters HTTP does not allow in a field (CR, LF, NUL, or white space at its ends)")
            }
            append(converted)
        }
    }
}

extension HTTPHeaders {
    /// The headers of swift-http-types fields, in order, repeated fields kept, names as written.
    public init(_ fields: HTTPFields) {
        self.init()
        for field in fields {
            add(name: field.name.rawName, value: field.value)
        }
    }
}
