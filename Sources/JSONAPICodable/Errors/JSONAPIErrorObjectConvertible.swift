/// An error that knows the error object a server answers with: its status, code, title, detail
/// and source.
///
/// ``JSONAPIErrorObject/init(describing:)`` takes the object of any error that conforms, so a
/// server's own errors answer as precisely as the library's do. The request, negotiation and
/// paging errors of `JSONAPIServer` conform.
///
/// ```swift
/// struct QuotaExceeded: Error, JSONAPIErrorObjectConvertible {
///   var errorObject: JSONAPIErrorObject {
///     JSONAPIErrorObject(status: "429", code: "quota", title: "Too Many Requests")
///   }
/// }
/// let object = JSONAPIErrorObject(describing: QuotaExceeded())   // status "429"
/// ```
public protocol JSONAPIErrorObjectConvertible: Error {
  /// The error object that describes this error to a client.
  var errorObject: JSONAPIErrorObject { get }
}
