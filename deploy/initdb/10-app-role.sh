#!/bin/sh
# The application role (web, worker, beat): it logs in, owns nothing, and gets its grants from
# `manage.py db_roles --app-role rivals_app`, run by the migration role after every migrate.
set -e
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" \
  -v pw="$RIVALS_APP_DB_PASSWORD" <<'SQL'
CREATE ROLE rivals_app LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE PASSWORD :'pw';
SQL
