/// The library's own JSON:API member types: their member names are fixed by the specification, so
/// key strategies never touch them or anything inside them.
protocol VerbatimKeysEncodable {}

extension JSONAPIErrorObject: VerbatimKeysEncodable {}
extension JSONAPIErrorObject.Source: VerbatimKeysEncodable {}
extension JSONAPIObject: VerbatimKeysEncodable {}
extension JSONAPILinks: VerbatimKeysEncodable {}
extension JSONAPILink: VerbatimKeysEncodable {}
extension JSONAPIValue: VerbatimKeysEncodable {}
