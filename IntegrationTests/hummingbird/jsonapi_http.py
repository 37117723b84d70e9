"""One JSON:API exchange over HTTP, for the scripts of Scripts/hummingbird.sh. Standard library only."""
import json
import urllib.error
import urllib.request

MEDIA = "application/vnd.api+json"
ATOMIC = MEDIA + ';ext="https://jsonapi.org/ext/atomic"'


def exchange(base, method, path, document=None, media=MEDIA, timeout=30):
    """Sends `document` (if any) as `media` to base + path; returns the status and the body's bytes.

    An answer with an error status is returned, not raised; a broken connection raises."""
    body = json.dumps(document).encode() if document is not None else None
    headers = {"Accept": media}
    if body is not None:
        headers["Content-Type"] = media
    req = urllib.request.Request(base + path, data=body, method=method, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()
