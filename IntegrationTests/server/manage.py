#!/usr/bin/env python3
"""Django's command-line entry point for the integration-test server."""
import os
import sys

if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "jsonapi_server.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)
