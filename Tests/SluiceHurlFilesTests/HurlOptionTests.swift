import SluiceHurlFiles
import Testing

/// `[Options]` lines and their typed values.
struct HurlOptionTests {
    @Test func booleanOptions() throws {
        for name in HurlOptionName.allCases where name.valueKind == .boolean {
            let option = try HurlTestSupport.optionLine("\(name.rawValue): true")
            #expect(option.name == name)
            #expect(option.value == .boolean(true))
            #expect(option.position == .at(3, 1))
        }
        let off = try HurlTestSupport.optionLine("insecure : false  # comment")
        #expect(off.value == .boolean(false))
        let templated = try HurlTestSupport.optionLine("location: {{follow}}")
        #expect(
            templated.value
                == .expression(HurlTemplateExpression(position: .at(3, 11), source: .variable(name: "follow"), filters: []))
        )
    }

    @Test func countAndNaturalOptions() throws {
        #expect(try HurlTestSupport.optionLine("retry: 10").value == .integer("10"))
        #expect(try HurlTestSupport.optionLine("retry: -1").value == .integer("-1"))
        #expect(try HurlTestSupport.optionLine("max-redirs: 99999999999999999999").value == .integer("99999999999999999999"))
        #expect(try HurlTestSupport.optionLine("repeat: 3").value == .integer("3"))
        #expect(try HurlTestSupport.optionLine("limit-rate: 1000").value == .integer("1000"))
    }

    @Test func durationOptions() throws {
        #expect(try HurlTestSupport.optionLine("delay: 500").value == .duration(HurlDuration(value: "500", unit: nil)))
        #expect(
            try HurlTestSupport.optionLine("retry-interval: 500ms").value
                == .duration(HurlDuration(value: "500", unit: .milliseconds))
        )
        #expect(try HurlTestSupport.optionLine("connect-timeout: 2s").value == .duration(HurlDuration(value: "2", unit: .seconds)))
        #expect(try HurlTestSupport.optionLine("max-time: 1m").value == .duration(HurlDuration(value: "1", unit: .minutes)))
        guard case .expression = try HurlTestSupport.optionLine("delay: {{wait}}").value else {
            Issue.record("expected an expression")
            return
        }
    }

    @Test func textAndFileOptions() throws {
        #expect(
            try HurlTestSupport.optionLine("user: bob:secret").value == .text(HurlTestSupport.literal("bob:secret", at: .at(3, 7)))
        )
        #expect(
            try HurlTestSupport.optionLine("cacert: /etc/cert.pem").value
                == .text(HurlTestSupport.literal("/etc/cert.pem", at: .at(3, 9)))
        )
        guard case .text(let output) = try HurlTestSupport.optionLine("output: my\\ file.bin").value else {
            Issue.record("expected text")
            return
        }
        #expect(output.literalValue == "my file.bin")
        guard case .text(let cert) = try HurlTestSupport.optionLine("cert: client.pem:pass\\:word").value else {
            Issue.record("expected text")
            return
        }
        #expect(cert.literalValue == "client.pem:pass:word")
        #expect(
            try HurlTestSupport.optionLine("connect-to: a.org:443:127.0.0.1:8443").value
                == .text(HurlTestSupport.literal("a.org:443:127.0.0.1:8443", at: .at(3, 13)))
        )
        #expect(
            try HurlTestSupport.optionLine("header: X-Trace: 1").value
                == .text(HurlTestSupport.literal("X-Trace: 1", at: .at(3, 9)))
        )
    }

    @Test func variableOptions() throws {
        func definition(_ line: String) throws -> HurlVariableDefinition {
            guard case .variableDefinition(let definition) = try HurlTestSupport.optionLine(line).value else {
                Issue.record("expected a variable definition")
                throw HurlTestFailure()
            }
            return definition
        }
        #expect(try definition("variable: a=null").value.kind == .null)
        #expect(try definition("variable: a = true").value.kind == .boolean(true))
        #expect(try definition("variable: a=12345678901234567890").value.kind == .integer("12345678901234567890"))
        #expect(try definition("variable: a=-1.5").value.kind == .float("-1.5"))
        #expect(try definition("variable: a=\"x y\"").value.kind == .string(HurlTestSupport.quoted("x y", line: 3, column: 13)))
        let unquoted = try definition("variable: my-var=1.0.0  # version")
        #expect(unquoted.name == "my-var")
        #expect(unquoted.position == .at(3, 11))
        #expect(unquoted.value.kind == .unquotedString(HurlTestSupport.literal("1.0.0", at: .at(3, 18))))
        #expect(try definition("variable: t=true story").value.kind == .unquotedString(HurlTestSupport.literal("true story", at: .at(3, 13))))
    }

    @Test(arguments: HurlOptionName.allCases)
    func everyOptionParses(name: HurlOptionName) throws {
        let sample: String
        switch name.valueKind {
        case .boolean: sample = "false"
        case .count: sample = "-1"
        case .natural: sample = "0"
        case .duration: sample = "10s"
        case .filename: sample = "path/to/file.pem"
        case .filenameWithPassword: sample = "cert.pem:password"
        case .variableDefinition: sample = "a=b"
        case .text: sample = "some value {{v}}"
        }
        let option = try HurlTestSupport.optionLine("\(name.rawValue): \(sample)")
        #expect(option.name == name)
        switch (name.valueKind, option.value) {
        case (.boolean, .boolean(false)), (.count, .integer("-1")), (.natural, .integer("0")),
            (.duration, .duration(HurlDuration(value: "10", unit: .seconds))), (.filename, .text),
            (.filenameWithPassword, .text), (.variableDefinition, .variableDefinition), (.text, .text):
            break
        default:
            Issue.record("unexpected value \(option.value) for \(name.rawValue)")
        }
    }

    @Test func optionErrors() {
        HurlTestSupport.expectError(
            "GET http://localhost\n[Options]\nmax_redirs: 3\n",
            line: 3,
            column: 1,
            message: "expected an option name (location, insecure, retry, delay, variable, verbose, ...), found `max_redirs:`"
        )
        HurlTestSupport.expectError(
            "GET http://localhost\n[Options]\ninsecure: yes\n",
            line: 3,
            column: 11,
            message: "expected `true`, `false` or a {{...}} expression as the value of option `insecure`, found `yes`"
        )
        HurlTestSupport.expectError(
            "GET http://localhost\n[Options]\nretry: -2\n",
            line: 3,
            column: 8,
            message: "expected an integer (-1 for no limit) or a {{...}} expression as the value of option `retry`, found `-2`"
        )
        HurlTestSupport.expectError(
            "GET http://localhost\n[Options]\nlimit-rate: -1\n",
            line: 3,
            column: 13,
            message: "expected an integer (0 or more) or a {{...}} expression as the value of option `limit-rate`, found `-1`"
        )
        HurlTestSupport.expectError(
            "GET http://localhost\n[Options]\ndelay: 3h\n",
            line: 3,
            column: 9,
            message: "expected a duration unit (ms, s or m) after `3`, found `h`"
        )
        HurlTestSupport.expectError(
            "GET http://localhost\n[Options]\nvariable: newUuid=1\n",
            line: 3,
            column: 11,
            message: "expected a variable name that is not a function name, found `newUuid`"
        )
        HurlTestSupport.expectError(
            "GET http://localhost\n[Options]\nvariable: a 1\n",
            line: 3,
            column: 13,
            message: "expected `=` after the variable name `a`, found `1`"
        )
        HurlTestSupport.expectError(
            "GET http://localhost\n[Options]\nverbose: true false\n",
            line: 3,
            column: 15,
            message: "expected the end of the line after the value of option `verbose`, found `false`"
        )
    }
}
