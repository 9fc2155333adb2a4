// Wire protocol v2 shared constants (v1 boards are still understood by the hub). Keep in sync with firmware-bridge/protocol.ts and
// firmware-bridge/PROTOCOL.md.
#pragma once
#include <stdint.h>

#define PROTO_VERSION 2
#define FW_MAJOR 2
#define FW_MINOR 0
#define FW_PATCH 0

#define SYNC0 0xA5
#define SYNC1 0x5A
#define MAX_PAYLOAD 48

// board -> hub
#define MSG_HELLO 0x01
#define MSG_HEARTBEAT 0x02
#define MSG_IMPACT 0x03
#define MSG_SKITTLE 0x04
#define MSG_VIBRATION 0x05
#define MSG_CONFIG 0x06
#define MSG_ACK 0x07
#define MSG_SELFTEST 0x08

// hub -> board
#define CMD_SET_CHANNEL 0x81
#define CMD_GET_VERSION 0x82
#define CMD_GET_CONFIG 0x83
#define CMD_SELF_TEST 0x84
#define CMD_SET_DEBOUNCE 0x85
#define CMD_SET_INVERT 0x86  // v2: skittle switch polarity mask

// HELLO flags (v2)
#define HELLO_AT_BOOT 1     // sent unasked after a reset
#define HELLO_CAUSE_BOOTLOADER 2  // resetCause came from the bootloader's r2 copy (Optiboot)

#define ACK_OK 0
#define ACK_BAD_LENGTH 1
#define ACK_BAD_VALUE 2
#define ACK_UNKNOWN 3
