#!/bin/bash
set -Eeuo pipefail

hurl tests_ok/path_as_is/path_as_is_option.hurl
