import Foundation

/// A declaration a ``JSONAPIServer`` cannot serve, found when the server or a declaration is
/// made, before any request: a model the schema reader cannot read, a filter or sort member the
/// model lacks, a relationship to an undeclared type.
///
/// ```swift
/// do {
///   let articles = try JSONAPIResourceDeclaration(Article.self, sortable: ["color"])
/// } catch let error as JSONAPIDeclarationError {
///   print(error)   // The declaration of articles names the sort field `color`, which …
/// }
/// ```
public struct JSONAPIDeclarationError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What is wrong and what to do about it.
  public var reason: String
  /// Where in the model it is (`author.tags[0]`), when the model's members are at fault.
  public var memberPath: String?

  /// Creates the error.
  public init(reason: String, memberPath: String? = nil) {
    self.reason = reason
    self.memberPath = memberPath
  }

  /// The reason, with the member path when there is one.
  public var description: String {
    guard let memberPath, !memberPath.isEmpty else { return reason }
    return "\(reason) (at \(memberPath))"
  }
}
