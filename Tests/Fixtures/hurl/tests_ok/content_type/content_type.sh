#!/bin/bash
set -Eeuo pipefail

hurl --verbose tests_ok/content_type/content_type.hurl

