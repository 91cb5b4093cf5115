#!/bin/bash
set -Eeuo pipefail

hurl tests_ok/http_version/http_version_option.hurl
