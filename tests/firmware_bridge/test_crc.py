"""CRC-16/CCITT-FALSE: the firmware's table against binascii.crc_hqx."""

from __future__ import annotations

import binascii

from hypothesis import given
from hypothesis import strategies as st

from firmware_bridge.firmware.wire import crc16, fast_crc16


def test_check_value_of_the_catalogue() -> None:
    # The CRC RevEng catalogue's check value for CRC-16/IBM-3740 (alias CCITT-FALSE).
    assert crc16(b"123456789") == 0x29B1


@given(st.binary(max_size=400))
def test_table_crc_equals_crc_hqx(data: bytes) -> None:
    assert crc16(data) == binascii.crc_hqx(data, 0xFFFF) == fast_crc16(data)
