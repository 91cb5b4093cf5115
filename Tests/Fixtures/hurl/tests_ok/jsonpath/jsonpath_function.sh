#!/bin/bash
set -Eeuo pipefail

hurl tests_ok/jsonpath/jsonpath_function.hurl
