// Responses as a JSON:API server sends them, kept here so that the example runs offline.

/// `GET /articles?include=author,comments.author,hero&page[number]=1&page[size]=2`
let articlesResponse = #"""
  {
    "jsonapi": { "version": "1.1" },
    "meta": { "totalPages": 3, "totalCount": 6 },
    "links": {
      "self": "https://api.example.com/articles?page%5Bnumber%5D=1&page%5Bsize%5D=2",
      "next": "https://api.example.com/articles?page%5Bnumber%5D=2&page%5Bsize%5D=2",
      "last": "https://api.example.com/articles?page%5Bnumber%5D=3&page%5Bsize%5D=2"
    },
    "data": [
      {
        "type": "articles",
        "id": "1",
        "attributes": {
          "title": "Swift on the server, one year in",
          "publishedAt": "2024-05-01T09:30:00Z",
          "tags": ["swift", "server"]
        },
        "relationships": {
          "author": { "data": { "type": "people", "id": "9" } },
          "comments": {
            "meta": { "count": 2 },
            "links": { "related": "https://api.example.com/articles/1/comments" },
            "data": [
              { "type": "comments", "id": "5" },
              { "type": "comments", "id": "12" }
            ]
          },
          "hero": { "data": { "type": "images", "id": "img-1" } }
        },
        "meta": { "readingMinutes": 7 },
        "links": { "self": "https://api.example.com/articles/1" }
      },
      {
        "type": "articles",
        "id": "2",
        "attributes": {
          "title": "Decoding JSON:API without a second parse",
          "publishedAt": "2024-06-12T14:00:00Z",
          "tags": ["json", "performance"]
        },
        "relationships": {
          "author": { "data": { "type": "people", "id": "9" } },
          "comments": {
            "meta": { "count": 0 },
            "links": { "related": "https://api.example.com/articles/2/comments" },
            "data": []
          },
          "hero": { "data": { "type": "videos", "id": "vid-7" } }
        },
        "meta": { "readingMinutes": 12 },
        "links": { "self": "https://api.example.com/articles/2" }
      }
    ],
    "included": [
      {
        "type": "people",
        "id": "9",
        "attributes": { "name": "Dana Reyes", "twitter": "dana_codes" },
        "links": { "self": "https://api.example.com/people/9" }
      },
      {
        "type": "comments",
        "id": "5",
        "attributes": { "body": "Which framework did you pick in the end?" },
        "relationships": { "author": { "data": { "type": "people", "id": "2" } } }
      },
      {
        "type": "comments",
        "id": "12",
        "attributes": { "body": "Great write-up, thanks!" },
        "relationships": { "author": { "data": { "type": "people", "id": "9" } } }
      },
      {
        "type": "images",
        "id": "img-1",
        "attributes": {
          "url": "https://cdn.example.com/img-1.jpg", "width": 1200, "height": 630
        }
      },
      {
        "type": "videos",
        "id": "vid-7",
        "attributes": { "url": "https://cdn.example.com/vid-7.mp4", "durationSeconds": 184.5 }
      }
    ]
  }
  """#

/// `POST /articles` with an empty title: the server answers 422 with an error document.
let validationErrorResponse = #"""
  {
    "jsonapi": { "version": "1.1" },
    "errors": [
      {
        "status": "422",
        "code": "blank",
        "title": "Invalid Attribute",
        "detail": "Title must not be empty.",
        "source": { "pointer": "/data/attributes/title" }
      },
      {
        "status": "422",
        "title": "Invalid Relationship",
        "detail": "Author 404 does not exist.",
        "source": { "pointer": "/data/relationships/author/data" }
      }
    ]
  }
  """#
