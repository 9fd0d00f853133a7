"""Kafka record batches (magic 2), legacy message sets (magic 0/1), compression."""
