-- Trigram similarity for near-miss memory search (a contrib extension: bundled with PGlite, and in the
-- postgresql-contrib package of every mainstream PostgreSQL distribution).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
