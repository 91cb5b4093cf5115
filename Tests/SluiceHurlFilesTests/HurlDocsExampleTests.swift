import SluiceHurlFiles
import Testing

/// Examples transcribed from Hurl's documentation (Orange-OpenSource/hurl, Apache-2.0).
///
/// - `docs/filters.md` at commit c750aa1a98358aa771b96da5fd4fa130f3c04418
/// - `docs/request.md` at commit 00e0c5cc58f2173b470e09d03ac440d1881c434f
/// - `docs/asserting-response.md` at commit 5a0bf1909425d047990eeb6d967584b952adcf95 (examples still valid
///   today; the page's `HTTP/*` and `equals` examples use syntax Hurl has since removed and are left out)
struct HurlDocsExampleTests {
    static let filterExamples: [String] = [
        #"""
        GET https://example.org/api
        HTTP 200
        [Captures]
        name: jsonpath "$.user.id" replaceRegex /\d/ "x"
        [Asserts]
        header "x-servers" split "," count == 2
        header "x-servers" split "," nth 0 == "rec1"
        header "x-servers" split "," nth 1 == "rec3"
        jsonpath "$.books" count == 12
        """#,
        #"""
        GET https://example.org/api
        HTTP 200
        [Asserts]
        jsonpath "$.token" base64Decode == hex,3c3c3f3f3f3e3e;
        bytes base64Encode == "PDw/Pz8+Pg=="
        jsonpath "$.token" base64UrlSafeDecode == hex,3c3c3f3f3f3e3e;
        bytes base64UrlSafeEncode == "PDw_Pz8-Pg"
        """#,
        #"""
        GET https://example.org
        HTTP 200
        [Asserts]
        certificate "Expire-Date" daysAfterNow > 15
        certificate "Start-Date" daysBeforeNow < 100
        """#,
        #"""
        # The 'Content-Type' HTTP response header does not precise the charset 'gb2312'
        # so body must be decoded explicitly by Hurl before processing any text based assert
        GET https://example.org/hello_china
        HTTP 200
        [Asserts]
        header "Content-Type" == "text/html"
        # Content-Type has no encoding clue, we must decode ourselves the body response.
        bytes decode "gb2312" xpath "string(//body)" == "你好世界"
        """#,
        #"""
        GET https://example.org
        HTTP 200
        [Asserts]
        jsonpath "$.books" first == "Dune"
        cookie "LSID[Expires]" dateFormat "%a, %d %b %Y %H:%M:%S" == "Wed, 13 Jan 2021 22:23:01"
        jsonpath "$.text" htmlEscape == "a &gt; b"
        jsonpath "$.escaped_html[1]" htmlUnescape == "Foo © bar 𝌆"
        jsonpath "$.books" last == "Les Misérables"
        """#,
        #"""
        GET https://example.org/api
        HTTP 200
        [Captures]
        books: xpath "string(//body/@data-books)" 
        [Asserts]
        variable "books" jsonpath "$[0].name" == "Dune"
        variable "books" jsonpath "$[0].author" == "Franck Herbert"
        """#,
        #"""
        GET https://example.org/step1
        [Options]
        location: true
        HTTP 200
        [Asserts]
        redirects count == 2
        redirects nth 0 location == "https://example.org/step2"
        redirects nth 1 location == "https://example.org/step3"
        """#,
        #"""
        GET https://example.org/foo
        HTTP 200
        [Captures]
        param1: header "header1"
        param2: header "header2" regex "Hello (.*)!"
        param3: header "header2" regex /Hello (.*)!/
        param3: header "header2" regex /(?i)Hello (.*)!/
        """#,
        #"""
        GET https://example.org/foo
        HTTP 200
        [Captures]
        url: jsonpath "$.url" replace "http://" "https://"
        [Asserts]
        jsonpath "$.ips" replace ", " "|" == "192.168.2.1|10.0.0.20|10.0.0.10"
        """#,
        #"""
        GET https://example.org/foo
        HTTP 200
        [Captures]
        url: jsonpath "$.id" replaceRegex /\d/ "x"
        [Asserts]
        jsonpath "$.message" replaceRegex "B[aoi]b" "Dude" == "Welcome Dude!"
        jsonpath "$.ips" split ", " count == 3
        """#,
        #"""
        GET https:///example.org
        HTTP 200
        [Asserts]
        header "Expires" toDate "%a, %d %b %Y %H:%M:%S GMT" daysBeforeNow > 1000
        """#,
        #"""
        GET https://example.org/api/books
        HTTP 200
        [Asserts]
        jsonpath "$.published" == "2023-01-23T18:25:43.511Z"
        jsonpath "$.published" toDate "%Y-%m-%dT%H:%M:%S%.fZ" dateFormat "%A" == "Monday"
        jsonpath "$.published" toDate "%+" dateFormat "%A" == "Monday" # %+ can be used to parse ISO 8601 / RFC 3339
        """#,
        #"""
        GET https://example.org/foo
        HTTP 200
        [Asserts]
        jsonpath "$.pi" toFloat == 3.14
        bytes toHex == "d188d0b5d0bbd0bbd18b"
        jsonpath "$.id" toInt == 123
        jsonpath "$.count" toString == "42"
        jsonpath "$.encoded_url" urlDecode == "https://mozilla.org/?x=шеллы"
        jsonpath "$.url" urlEncode == "https%3A//mozilla.org/%3Fx%3D%D1%88%D0%B5%D0%BB%D0%BB%D1%8B"
        """#,
    ]

    static let requestExamples: [String] = [
        #"""
        PATCH https://example.org/file.txt
        If-Match: "e0023aa4e"
        """#,
        #"""
        GET https://example.org/news
        User-Agent: Mozilla/5.0 (Macintosh; Intel Mac OS X 10.14; rv:70.0) Gecko/20100101 Firefox/70.0
        [QueryStringParams]
        order: newest
        search: {{custom-search}}
        count: 100
        """#,
        #"""
        POST https://example.org/contact
        [FormParams]
        default: false
        token: {{token}}
        email: john.doe@rookie.org
        number: 33611223344
        """#,
        #"""
        # Run a POST request with form parameters section:
        POST https://example.org/test
        [FormParams]
        name: John Doe
        key1: value1

        # Run the same POST request with a body section:
        POST https://example.org/test
        Content-Type: application/x-www-form-urlencoded
        ```
        name=John%20Doe&key1=value1
        ```
        """#,
        #"""
        POST https://example.org/upload
        [MultipartFormData]
        field1: value1
        field2: file,example.txt;
        # One can specify the file content type:
        field3: file,example.zip; application/zip
        """#,
        #"""
        # Run a GET request with cookies section:
        GET https://example.org/index.html
        [Cookies]
        theme: light
        sessionToken: abc123

        # Run the same GET request with a header:
        GET https://example.org/index.html
        Cookie: theme=light; sessionToken=abc123
        """#,
        #"""
        # Perform basic authentification with login `bob` and password `secret`.
        GET https://example.org/protected
        [BasicAuth]
        bob: secret
        """#,
        #"""
        # Create a new doggy thing with JSON body:
        POST https://example.org/api/dogs
        {
            "id": 0,
            "name": "Frieda",
            "picture": "images/scottish-terrier.jpeg",
            "age": 3,
            "breed": "Scottish Terrier",
            "location": "Lisco, Alabama"
        }
        """#,
        #"""
        # Create a new soapy thing XML body:
        POST https://example.org/InStock
        Content-Type: application/soap+xml; charset=utf-8
        Content-Length: 299
        SOAPAction: "http://www.w3.org/2003/05/soap-envelope"
        <?xml version="1.0" encoding="UTF-8"?>
        <soap:Envelope xmlns:soap="http://www.w3.org/2003/05/soap-envelope" xmlns:m="http://example.net">
          <soap:Header></soap:Header>
          <soap:Body>
            <m:GetStockPrice>
              <m:StockName>GOOG</m:StockName>
            </m:GetStockPrice>
          </soap:Body>
        </soap:Envelope>
        """#,
        #"""
        POST https://example.org/models
        ```
        Year,Make,Model,Description,Price
        1997,Ford,E350,"ac, abs, moon",3000.00
        1999,Chevy,"Venture ""Extended Edition""","",4900.00
        1999,Chevy,"Venture ""Extended Edition, Very Large""",,5000.00
        1996,Jeep,Grand Cherokee,"MUST SELL! air, moon roof, loaded",4799.00
        ```
        """#,
        #"""
        POST https://example.org
        # Some random comments before body
        base64,TG9yZW0gaXBzdW0gZG9sb3Igc2l0IGFtZXQsIGNvbnNlY3RldHVyIG
        FkaXBpc2NpbmcgZWxpdC4gSW4gbWFsZXN1YWRhLCBuaXNsIHZlbCBkaWN0dW0g
        aGVuZHJlcml0LCBlc3QganVzdG8gYmliZW5kdW0gbWV0dXMsIG5lYyBydXRydW
        0gdG9ydG9yIG1hc3NhIGlkIG1ldHVzLiA=;
        """#,
        #"""
        PUT https://example.org
        # Send a café, encoded in UTF-8
        hex,636166c3a90a;
        """#,
        #"""
        POST https://example.org
        # Some random comments before body
        file,data.bin;
        """#,
    ]

    static let responseExamples: [String] = [
        #"""
        GET https://example.org/home

        HTTP/1.1 200
        [Asserts]
        xpath "boolean(count(//h1))" == true
        xpath "//h1" exists # Equivalent but simpler
        """#,
        #"""
        # A really well tested web page...
        GET https://example.org/home

        HTTP/1.1 200
        [Asserts]
        header "Content-Type" contains "text/html"
        header "Last-Modified" == "Wed, 21 Oct 2015 07:28:00 GMT"
        xpath "//h1" exists  # Check we've at least one h1
        xpath "normalize-space(//h1)" contains "Welcome"
        xpath "//h2" count == 13
        xpath "string(//article/@data-id)" startsWith "electric"
        """#,
        #"""
        GET http://localhost:8000/cookies/set

        HTTP/1.0 200

        # Explicit check of Set-Cookie header value. If the attributes are
        # not in this excat order, this assert will fail. 
        Set-Cookie: LSID=DQAAAKEaem_vYg; Expires=Wed, 13 Jan 2021 22:23:01 GMT; Secure; HttpOnly; Path=/accounts; SameSite=Lax;
        Set-Cookie: HSID=AYQEVnDKrdst; Domain=.localhost; Expires=Wed, 13 Jan 2021 22:23:01 GMT; HttpOnly; Path=/

        # Using cookie assert, one can check cookie value and various attributes.
        [Asserts]
        cookie "LSID" == "DQAAAKEaem_vYg"
        cookie "LSID[Value]" == "DQAAAKEaem_vYg"
        cookie "LSID[Expires]" exists
        cookie "LSID[Expires]" contains "Wed, 13 Jan 2021"
        cookie "LSID[Max-Age]" not exists
        cookie "LSID[Path]" == "/accounts"
        """#,
        #"""
        GET https://example.org

        HTTP/1.1 200
        Content-Type: text/html; charset=UTF-8

        [Asserts]
        xpath "string(/html/head/title)" contains "Example" # Check title
        xpath "count(//p)" == 2                             # Check the number of <p>
        xpath "//p" count == 2                              # Similar assert for <p>
        xpath "boolean(count(//h2))" == false               # Check there is no <h2>  
        xpath "//h2" not exists                             # Similar assert for <h2> 
        """#,
        #"""
        GET http://httpbin.org/json

        HTTP/1.1 200
        [Asserts]
        jsonpath "$.slideshow.author" == "Yours Truly"
        jsonpath "$.slideshow.slides[0].title" contains "Wonder"
        jsonpath "$.slideshow.slides" count == 2
        jsonpath "$.slideshow.date" != null
        jsonpath "$.slideshow.slides[*].title" includes "Mind Blowing!"
        """#,
        #"""
        GET https://sample.org/hello

        HTTP/1.0 200
        [Asserts]
        # Predicate value with matches predicate:
        jsonpath "$.date" matches "^\\d{4}-\\d{2}-\\d{2}$"
        jsonpath "$.name" matches "Hello [a-zA-Z]+!"
        # Equivalent syntax:
        jsonpath "$.date" matches /^\d{4}-\d{2}-\d{2}$/
        jsonpath "$.name" matches /Hello [a-zA-Z]+!/
        regex "^\\d{4}-\\d{2}-\\d{2}$" == "2018-12-31"
        duration < 1000   # Check that response time is less than one second
        """#,
        #"""
        # Get a doggy thing:
        GET https://example.org/api/dogs/{{dog-id}}

        HTTP/1.1 200
        {
            "id": 0,
            "name": "Frieda",
            "picture": "images/scottish-terrier.jpeg",
            "age": 3,
            "breed": "Scottish Terrier",
            "location": "Lisco, Alabama"
        }
        """#,
        #"""
        GET https://example.org/api/catalog

        HTTP/1.1 200
        <?xml version="1.0" encoding="UTF-8"?>
        <catalog>
           <book id="bk101">
              <author>Gambardella, Matthew</author>
              <title>XML Developer's Guide</title>
              <genre>Computer</genre>
              <price>44.95</price>
              <publish_date>2000-10-01</publish_date>
              <description>An in-depth look at creating applications with XML.</description>
           </book>
        </catalog>
        """#,
        #"""
        GET https://example.org

        HTTP/1.1 200
        base64,TG9yZW0gaXBzdW0gZG9sb3Igc2l0IGFtZXQsIGNvbnNlY3RldHVyIG
        FkaXBpc2NpbmcgZWxpdC4gSW4gbWFsZXN1YWRhLCBuaXNsIHZlbCBkaWN0dW0g
        aGVuZHJlcml0LCBlc3QganVzdG8gYmliZW5kdW0gbWV0dXMsIG5lYyBydXRydW
        0gdG9ydG9yIG1hc3NhIGlkIG1ldHVzLiA=;
        """#,
    ]

    @Test(arguments: filterExamples + requestExamples + responseExamples)
    func documentationExampleParses(text: String) throws {
        let file = try HurlFile.parse(text)
        #expect(!file.entries.isEmpty)
    }

    @Test func filterTableExampleStructure() throws {
        let file = try HurlFile.parse(Self.filterExamples[0])
        let response = try #require(file.entries.first?.response)
        guard case .captures(let captures) = response.sections[0].content,
            case .asserts(let asserts) = response.sections[1].content
        else {
            Issue.record("expected captures then asserts")
            return
        }
        #expect(captures.first?.filters.map(\.kind) == [
            .replaceRegex(
                pattern: .regex(HurlRegex(position: .at(4, 41), source: "\\d", pattern: "\\d")),
                replacement: HurlTestSupport.quoted("x", line: 4, column: 46)
            )
        ])
        #expect(asserts.count == 4)
        #expect(asserts[1].filters.count == 2)
    }

    @Test func rawStringExampleContent() throws {
        let file = try HurlFile.parse(Self.requestExamples[3])
        #expect(file.entries.count == 2)
        guard case .multilineString(let body) = file.entries[1].request.body?.kind else {
            Issue.record("expected a multiline body")
            return
        }
        #expect(body.content.literalValue == "name=John%20Doe&key1=value1\n")
        #expect(file.comments.count == 2)
    }
}
