#!/bin/bash
set -Eeuo pipefail

hurl tests_ok/empty/empty_sections.hurl
