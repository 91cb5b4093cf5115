#!/bin/bash
set -Eeuo pipefail

hurl tests_ok/empty_value_header/empty_value_header.hurl
