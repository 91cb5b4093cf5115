/// A built-in function usable at the start of a `{{...}}` expression.
///
/// These names are reserved: a variable cannot use them.
public enum HurlFunction: String, Sendable, Hashable, CaseIterable {
    /// `getEnv "NAME"`: an environment variable.
    case getEnv
    /// `newDate`: the current date.
    case newDate
    /// `newUuid`: a random UUID.
    case newUuid
    /// `randomBool`: a random boolean.
    case randomBool
    /// `randomEmail`: a random email address.
    case randomEmail
    /// `randomFirstName`: a random first name.
    case randomFirstName
    /// `randomFullName`: a random full name.
    case randomFullName
    /// `randomInt MIN MAX`: a random integer.
    case randomInt
    /// `randomLastName`: a random last name.
    case randomLastName
    /// `randomString LENGTH`: a random string.
    case randomString
    /// `randomWord`: a random word.
    case randomWord
}
