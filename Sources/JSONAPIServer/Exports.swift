// A server imports the codec with it: `import JSONAPIServer` is all a server file needs.
@_exported import JSONAPICodable
