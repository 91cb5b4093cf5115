#!/bin/bash
set -Eeuo pipefail

hurl --verbose --output - tests_ok/stdout/stdout.hurl


