#!/bin/bash
set -Eeuo pipefail

hurl tests_ok/predicates/predicates_number.hurl
