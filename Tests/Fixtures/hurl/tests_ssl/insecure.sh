#!/bin/bash
set -Eeuo pipefail
hurl tests_ssl/insecure.hurl --insecure --verbose
