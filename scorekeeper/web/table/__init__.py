"""A table's pages: the scorer's page and its hands, the watch page, setup, settling up, sharing, files (templates/table/)."""
