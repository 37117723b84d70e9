"""Settings of the JSON:API server the Swift integration suite talks to.

Only for 127.0.0.1 and tests: DEBUG stays off so that a crash answers with Django's plain HTML 500
page, as a production server would.
"""
import os
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent

SECRET_KEY = "integration-tests-only"
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]

INSTALLED_APPS = [
    "django.contrib.contenttypes",
    "django.contrib.auth",
    "rest_framework",
    "rest_framework_json_api",
    "django_filters",
    "blog",
]

MIDDLEWARE = [
    "django.middleware.common.CommonMiddleware",
    "blog.middleware.JSONAPIMediaTypeMiddleware",
]
APPEND_SLASH = False
ROOT_URLCONF = "jsonapi_server.urls"
WSGI_APPLICATION = None

DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.sqlite3",
        # Scripts/integration.sh points this into the git-ignored .build-integration directory.
        "NAME": os.environ.get("JSONAPI_SERVER_DB", str(BASE_DIR / "db.sqlite3")),
    }
}

USE_TZ = True
TIME_ZONE = "UTC"
DEFAULT_AUTO_FIELD = "django.db.models.AutoField"

# Attribute and relationship names in kebab-case ("word-count"), types as the models say.
JSON_API_FORMAT_FIELD_NAMES = "dasherize"

REST_FRAMEWORK = {
    "PAGE_SIZE": 10,
    "EXCEPTION_HANDLER": "rest_framework_json_api.exceptions.exception_handler",
    "DEFAULT_PAGINATION_CLASS": "rest_framework_json_api.pagination.JsonApiPageNumberPagination",
    "DEFAULT_PARSER_CLASSES": ("rest_framework_json_api.parsers.JSONParser",),
    "DEFAULT_RENDERER_CLASSES": ("rest_framework_json_api.renderers.JSONRenderer",),
    "DEFAULT_METADATA_CLASS": "rest_framework_json_api.metadata.JSONAPIMetadata",
    "DEFAULT_FILTER_BACKENDS": (
        "rest_framework_json_api.filters.QueryParameterValidationFilter",
        "rest_framework_json_api.filters.OrderingFilter",
        "rest_framework_json_api.django_filters.DjangoFilterBackend",
    ),
    "ORDERING_PARAM": "sort",
    "DEFAULT_AUTHENTICATION_CLASSES": (),
    "DEFAULT_PERMISSION_CLASSES": ("rest_framework.permissions.AllowAny",),
    "UNAUTHENTICATED_USER": None,
}

# Tracebacks of server errors go to the server's log (Scripts/integration.sh prints it on failure).
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "loggers": {"django.request": {"handlers": ["console"], "level": "ERROR"}},
}
