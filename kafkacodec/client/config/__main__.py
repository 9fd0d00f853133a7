"""``python -m kafkacodec.client.config [--kind producer|consumer|admin|share_consumer|all] [--markdown]``:
the client settings with their defaults, ranges and meanings."""
from kafkacodec.client.config import main

raise SystemExit(main())
