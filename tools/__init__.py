"""Build tools run by hand or by make, never by the bot (not in the Docker image)."""
