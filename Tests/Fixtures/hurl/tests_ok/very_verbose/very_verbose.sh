#!/bin/bash
set -Eeuo pipefail

hurl  --very-verbose --location tests_ok/very_verbose/very_verbose.hurl
