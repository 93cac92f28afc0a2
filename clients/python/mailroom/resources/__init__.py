"""The API's resources, each a thin typed layer over the transport; ``Mailroom`` (client.py) assembles them."""
