#!/bin/bash
set -Eeuo pipefail

hurl --path-as-is tests_ok/path_as_is/path_as_is.hurl
