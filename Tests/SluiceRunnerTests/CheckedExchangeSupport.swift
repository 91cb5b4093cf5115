import Foundation
@testable import SluiceCore
@testable import SluicePipelineFiles
@testable import SluiceRunner

/// The checks and captures of a request judged against a response built in a test.
extension Expectation {
    func evaluate(response: Response, body: JSONValue?, duration: Duration, scope: VariableScope, cookies: [Cookie] = [], redirects: [RedirectHop] = []) -> ExpectationFailure? {
        evaluate(in: CheckedExchange(response: response, body: body, duration: duration, cookies: cookies, redirects: redirects, scope: scope))
    }
}

extension Capture {
    func value(from response: Response, body: JSONValue?, cookies: [Cookie] = []) throws(CheckFailure) -> JSONValue? {
        try value(in: CheckedExchange(response: response, body: body, duration: .zero, cookies: cookies, redirects: [], scope: VariableScope()))?.json
    }
}
