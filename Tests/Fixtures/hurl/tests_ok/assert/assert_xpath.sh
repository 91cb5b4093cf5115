#!/bin/bash
set -Eeuo pipefail

hurl tests_ok/assert/assert_xpath.hurl
