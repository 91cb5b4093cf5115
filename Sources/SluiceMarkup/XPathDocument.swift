import CLibXML2
import Foundation

/// An HTML or XML body parsed once, for any number of XPath 1.0 queries (libxml2's parsers and
/// XPath engine, as Hurl uses).
///
/// Parsing never reaches outside the body: no network (`NONET`), no external DTD and no entity
/// substitution, so an external entity (XXE) is never read and an entity bomb is never expanded.
/// HTML is read leniently, as browsers read it; XML must be well formed.
///
/// ```swift
/// let page = try XPathDocument(html: Data("<ul><li>a</li><li>b</li></ul>".utf8))
/// let items = try page.evaluate("//li")       // .nodes(["a", "b"])
/// let count = try page.evaluate("count(//li)") // .number(2)
/// ```
///
/// Namespaces declared on the root element are known by their prefixes in expressions, and the
/// default namespace by the prefix `_`, as in Hurl (`//_:book/_:title`).
public final class XPathDocument {
    private let document: xmlDocPtr

    /// Parses an HTML body, leniently (unclosed tags, missing `<html>`).
    /// - Parameters:
    ///   - body: the bytes.
    ///   - encoding: their charset when it is known (`UTF-8` for text already decoded), which wins
    ///     over a `<meta charset>` in the document; `nil` to go by the document.
    /// - Throws: ``XPathError`` when libxml2 makes no document of it (an empty body).
    public convenience init(html body: Data, encoding: String? = nil) throws(XPathError) {
        let options = Int32(HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue | HTML_PARSE_NONET.rawValue | HTML_PARSE_RECOVER.rawValue)
        let parsed = XPathDocument.silenced {
            body.withUnsafeBytes { bytes in
                htmlReadMemory(bytes.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(clamping: bytes.count), nil, encoding, options)
            }
        }
        guard let parsed else { throw XPathError("the body is not an HTML document") }
        self.init(parsed)
    }

    /// Parses an XML body, which must be well formed. Entities are not substituted and no
    /// external DTD is loaded.
    /// - Throws: ``XPathError`` naming the line of the first error when the body is not well formed.
    public convenience init(xml body: Data) throws(XPathError) {
        let options = Int32(XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue | XML_PARSE_NONET.rawValue)
        var line: Int32 = 0
        let parsed = XPathDocument.silenced {
            let document = body.withUnsafeBytes { bytes in
                xmlReadMemory(bytes.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(clamping: bytes.count), nil, nil, options)
            }
            if document == nil { line = xmlGetLastError()?.pointee.line ?? 0 }
            return document
        }
        guard let parsed else {
            throw XPathError("the body is not well-formed XML" + (line > 0 ? " (line \(line))" : ""))
        }
        self.init(parsed)
    }

    private init(_ document: xmlDocPtr) {
        self.document = document
    }

    deinit {
        xmlFreeDoc(document)
    }

    /// Evaluates an XPath 1.0 expression against the document.
    /// - Throws: ``XPathError`` when the expression is not valid XPath 1.0 or names a namespace
    ///   prefix the document does not declare.
    public func evaluate(_ expression: String) throws(XPathError) -> XPathResult {
        let result: Result<XPathResult, XPathError> = XPathDocument.silenced {
            guard let context = xmlXPathNewContext(document) else { return .failure(XPathError("out of memory")) }
            defer { xmlXPathFreeContext(context) }
            registerNamespaces(in: context)
            guard let object = xmlXPathEvalExpression(expression, context) else {
                return .failure(XPathError("`\(expression)` is not a valid XPath 1.0 expression"))
            }
            defer { xmlXPathFreeObject(object) }
            return .success(XPathDocument.value(of: object))
        }
        return try result.get()
    }

    /// Registers the root element's namespaces by their prefixes, the default one as `_`.
    private func registerNamespaces(in context: xmlXPathContextPtr) {
        guard let root = xmlDocGetRootElement(document) else { return }
        var namespace = root.pointee.nsDef
        while let current = namespace {
            if let href = current.pointee.href {
                if let prefix = current.pointee.prefix {
                    xmlXPathRegisterNs(context, prefix, href)
                } else {
                    xmlXPathRegisterNs(context, "_", href)
                }
            }
            namespace = current.pointee.next
        }
    }

    /// The Swift value of an XPath result object.
    private static func value(of object: xmlXPathObjectPtr) -> XPathResult {
        switch object.pointee.type {
        case XPATH_NODESET:
            guard let set = object.pointee.nodesetval, set.pointee.nodeNr > 0, let nodes = set.pointee.nodeTab else { return .nodes([]) }
            return .nodes((0..<Int(set.pointee.nodeNr)).map { index in
                guard let node = nodes[index], let content = xmlNodeGetContent(node) else { return "" }
                defer { sluice_xml_free(content) }
                return String(cString: content)
            })
        case XPATH_BOOLEAN:
            return .boolean(object.pointee.boolval != 0)
        case XPATH_NUMBER:
            return .number(object.pointee.floatval)
        case XPATH_STRING:
            return .string(object.pointee.stringval.map { String(cString: $0) } ?? "")
        default:
            return .string(xmlXPathCastToString(object).map { text in
                defer { sluice_xml_free(text) }
                return String(cString: text)
            } ?? "")
        }
    }

    /// Runs `body` with libxml2's error reports (which go to standard error by default) sent
    /// nowhere, on this thread; libxml2 keeps its error handler per thread.
    private static func silenced<T>(_ body: () -> T) -> T {
        xmlSetStructuredErrorFunc(nil, { _, _ in })
        defer { xmlSetStructuredErrorFunc(nil, nil) }
        return body()
    }
}
