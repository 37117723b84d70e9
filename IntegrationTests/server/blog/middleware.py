"""JSON:API media type negotiation (spec 1.1, "Content Negotiation").

djangorestframework-jsonapi ignores the parameters of `Content-Type` and `Accept`: it answers
200 to a request that applies an extension it does not support. The spec requires 415 for such a
`Content-Type` and 406 when every JSON:API instance in `Accept` asks for one. This middleware adds
those rules in front of the views, so the Swift client meets real 406 and 415 answers.
"""
import json

from django.http import HttpResponse

MEDIA_TYPE = "application/vnd.api+json"
ATOMIC = "https://jsonapi.org/ext/atomic"

# The extensions each path supports; every other path supports none.
SUPPORTED_EXTENSIONS = {"/operations": {ATOMIC}}


def split_outside_quotes(text, separator):
    parts, current, quoted = [], "", False
    for character in text:
        if character == '"':
            quoted = not quoted
        if character == separator and not quoted:
            parts.append(current)
            current = ""
        else:
            current += character
    parts.append(current)
    return parts


def parse_media_type(value):
    """(type, {parameter: value}) with the type and parameter names lowercased."""
    pieces = split_outside_quotes(value, ";")
    parameters = {}
    for piece in pieces[1:]:
        if "=" in piece:
            name, _, raw = piece.partition("=")
            parameters[name.strip().lower()] = raw.strip().strip('"')
    return pieces[0].strip().lower(), parameters


def acceptable(parameters, supported):
    """Whether a JSON:API media type instance asks only for what the server supports."""
    if set(parameters) - {"ext", "profile", "q"}:
        return False
    extensions = set(parameters.get("ext", "").split())
    return extensions <= supported


def error(status, title, detail, header):
    body = {"errors": [{"status": str(status), "title": title, "detail": detail,
                        "source": {"header": header}}]}
    return HttpResponse(json.dumps(body), status=status, content_type=MEDIA_TYPE)


class JSONAPIMediaTypeMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.path.startswith("/test/"):
            return self.get_response(request)
        supported = SUPPORTED_EXTENSIONS.get(request.path, set())

        content_type = request.META.get("CONTENT_TYPE", "")
        if content_type:
            media_type, parameters = parse_media_type(content_type)
            if media_type == MEDIA_TYPE and not acceptable(parameters, supported):
                return error(415, "Unsupported Media Type",
                             f"This endpoint does not support the media type {content_type}.",
                             "Content-Type")

        accept = request.META.get("HTTP_ACCEPT", "")
        instances = [parse_media_type(entry) for entry in split_outside_quotes(accept, ",")]
        jsonapi = [parameters for media_type, parameters in instances if media_type == MEDIA_TYPE]
        if jsonapi and not any(acceptable(parameters, supported) for parameters in jsonapi):
            return error(406, "Not Acceptable",
                         f"This endpoint cannot answer in any of the media types {accept}.",
                         "Accept")
        return self.get_response(request)
