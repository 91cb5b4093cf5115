/// Names as a sentence lists them: `a`, `a and b`, `a, b and c`.
func spokenList(_ names: [String]) -> String {
    guard let last = names.last, names.count > 1 else { return names.first ?? "" }
    return names.dropLast().joined(separator: ", ") + " and " + last
}
