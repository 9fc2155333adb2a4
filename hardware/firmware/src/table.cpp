// Billiards table sensor firmware for the ATmega328P at 16 MHz (Arduino Nano/Uno).
//
// Bare avr-libc on purpose: the fast path owns the ADC, Timer1 and USART0, and the
// Arduino core's Timer0 millis interrupt would only add jitter to the sampling.
//
// Channels: ADC0..ADC5 rail piezos, ADC6 ball-contact mic, ADC7 bed vibration.
// Skittle tilt switches: D2..D7 (PD2..PD7) and D8 (PB0), active low with pull-ups
// (a per-switch polarity mask inverts that for normally-closed/magnet switches).
//
// The detector inputs see a full-wave rectified, peak-held envelope of the piezo (see
// hardware/README.md "Front end"), so polarity and ring frequency do not matter: a hit
// starts when the envelope crosses the onset level (half the threshold), counts if its
// peak within the window reaches the threshold, and re-arms only once the envelope has
// fallen below the onset level again after the refractory time.
#include <avr/eeprom.h>
#include <avr/interrupt.h>
#include <avr/io.h>
#include <avr/wdt.h>
#include <stdint.h>
#include <util/crc16.h>

#include "protocol.h"

#define NUM_ADC 8
#define NUM_DETECT 7  // channels with impact detection (rails + click)
#define VIB_CH 7
#define NUM_SKITTLES 7
#define PEAK_SAMPLES 10  // samples of one channel (~1 ms) searched for the peak
#define EVQ_SIZE 64      // power of two
#define RXQ_SIZE 64      // power of two
#define HEARTBEAT_US 250000UL
#define VIBRATION_US 100000UL

#define ADMUX_BASE ((1 << REFS0) | (1 << ADLAR))  // AVcc reference, 8-bit result in ADCH
// Prescaler 16: 1 MHz ADC clock, 13 us per conversion. 8 useful bits, which is what a
// piezo peak detector needs; the speed buys >9 kHz per channel over 8 channels.
#define ADCSRA_BASE ((1 << ADEN) | (1 << ADIE) | (1 << ADPS2))

// Own-channel samples per millisecond used for refractory counting; the measured rate
// is ~8.5 kHz, so counting 9 per ms errs on the long side (at most ~6 %).
#define SAMPLES_PER_MS 9

struct Event {
  uint32_t t;
  uint8_t ch;  // 0..6 impact channel; 0x80|i skittle i
  uint8_t value;  // peak amplitude or skittle state (1 = down)
};

// Detector state, one array per field so the ISR indexes without multiplying.
static uint8_t threshold[NUM_DETECT];  // 0 disables the channel
static uint8_t onset[NUM_DETECT];      // arm level: half the threshold
static uint8_t waitQuiet[NUM_DETECT];  // 1: re-arm once the envelope is below onset
static uint16_t refractoryMs[NUM_DETECT];
static uint16_t refrSamples[NUM_DETECT];
static uint16_t refrLeft[NUM_DETECT];
static uint8_t peakLeft[NUM_DETECT];
static uint8_t peakVal[NUM_DETECT];
static uint32_t crossUs[NUM_DETECT];  // board us of the threshold crossing
static volatile Event evq[EVQ_SIZE];
static volatile uint8_t evqHead, evqTail;
static volatile uint16_t evDropped;  // events lost to a full queue (wraps)
// Not static: the simulator presets them (by symbol, build/table.sym) to test long uptimes.
extern "C" {
volatile uint32_t usHi;     // microseconds contributed by Timer1 overflows
volatile uint16_t usWraps;  // times usHi wrapped past 2^32: bits 32..47 of board time
}
extern "C" {
volatile uint8_t curCh;  // channel being converted; named in the ADC vector's asm
}
static volatile uint8_t vibMax;
extern "C" {
volatile uint8_t lastSample[NUM_ADC];  // named in the ADC vector's asm
volatile uint8_t gate[NUM_ADC];        // fast-path bound per channel, see the ADC vector
}
static volatile uint16_t adcCount;

static volatile uint8_t rxq[RXQ_SIZE];
static volatile uint8_t rxHead, rxTail;
static volatile uint16_t rxErrors;  // framing/overrun/overflow and bad command frames

static uint8_t txq[256];  // uint8_t indices wrap for free
static volatile uint8_t txHead, txTail;
static uint16_t txDropped;  // status frames skipped for lack of TX space
static uint8_t txSeq;
// .noinit: written in .init3, before .bss is cleared in .init4.
static uint8_t resetCause __attribute__((section(".noinit")));
static uint8_t helloFlags __attribute__((section(".noinit")));
static uint16_t bootId;  // EEPROM boot counter: tells the hub this is a new session
static uint8_t debounceMs = 10;
static uint8_t invertMask;  // skittle switches that read high when down
static uint8_t skStable, skCount[NUM_SKITTLES];
static uint32_t skSince[NUM_SKITTLES];
static uint16_t loopMaxTicks;

// Keep the watchdog from re-firing during start-up after a watchdog reset.
extern "C" void early_init(void) __attribute__((naked, used, section(".init3")));
void early_init(void) {
  // Optiboot clears MCUSR before starting the sketch but leaves its copy in r2.
  uint8_t fromLoader;
  asm volatile("mov %0, r2" : "=r"(fromLoader));
  resetCause = MCUSR;
  helloFlags = HELLO_AT_BOOT;
  if (!resetCause) {
    resetCause = fromLoader & 0x0F;
    helloFlags |= HELLO_CAUSE_BOOTLOADER;
  }
  MCUSR = 0;
  wdt_disable();
}

ISR(TIMER1_OVF_vect) {  // 65536 ticks of 0.5 us
  uint32_t h = usHi + 32768;
  usHi = h;
  if (!h) usWraps++;
}

// Board time of a past Timer1 tick; interrupts must be off. Valid for ticks < 32 ms old.
static inline uint32_t usFromTick(uint16_t tick) {
  uint16_t now = TCNT1;
  uint32_t hi = usHi;
  if ((TIFR1 & (1 << TOV1)) && now < 0x8000) hi += 32768;  // overflow not yet serviced
  return hi + (now >> 1) - ((uint16_t)(now - tick) >> 1);
}

static uint32_t micros() {
  uint8_t s = SREG;
  cli();
  uint32_t t = usFromTick(TCNT1);
  SREG = s;
  return t;
}

// 48-bit board time: the low 32 bits, and bits 32..47 in *wraps.
static uint32_t micros48(uint16_t *wraps) {
  uint8_t s = SREG;
  cli();
  uint16_t now = TCNT1;
  uint32_t hi = usHi;
  uint16_t w = usWraps;
  if ((TIFR1 & (1 << TOV1)) && now < 0x8000) {
    hi += 32768;
    if (!hi) w++;
  }
  SREG = s;
  *wraps = w;
  return hi + (now >> 1);
}

static inline void pushEvent(uint32_t t, uint8_t ch, uint8_t value) {
  uint8_t h = evqHead;
  uint8_t nh = (h + 1) & (EVQ_SIZE - 1);
  if (nh == evqTail) {
    evDropped++;
    return;
  }
  evq[h].t = t;
  evq[h].ch = ch;
  evq[h].value = value;
  evqHead = nh;
}

// Round robin over the 8 inputs, in two tiers so the common case is cheap:
//  - the naked vector (hand-written, 4 registers) starts the next conversion first,
//    stores the sample, and compares it with gate[ch]; below the gate it returns
//    (~60 cycles in all, against 208 cycles per conversion);
//  - otherwise it jumps to adcSlow (a normal C handler) for the state machine.
// gate[ch] is the threshold while a channel is idle, 255 when disabled, and 0 while
// it is busy (peak search, refractory) so that every sample takes the slow path. For
// the vibration channel it is the running maximum + 1.
#pragma GCC diagnostic ignored "-Wmisspelled-isr"  // adcSlow is reached by jmp, not a vector
extern "C" void adcSlow(void) __attribute__((signal, used));
ISR(ADC_vect, ISR_NAKED) {
  asm volatile(
      "push r24\n\t"
      "in r24, __SREG__\n\t"
      "push r24\n\t"
      "push r25\n\t"
      "push r30\n\t"
      "push r31\n\t"
      "lds r24, curCh\n\t"
      "mov r25, r24\n\t"
      "subi r25, 0xFF\n\t"
      "andi r25, 7\n\t"
      "sts curCh, r25\n\t"
      "ori r25, %[mux]\n\t"
      "sts %[admux], r25\n\t"
      "ldi r25, %[start]\n\t"
      "sts %[adcsra], r25\n\t"
      "lds r25, %[adch]\n\t"
      "ldi r30, lo8(lastSample)\n\t"
      "ldi r31, hi8(lastSample)\n\t"
      "add r30, r24\n\t"
      "brcc 1f\n\t"
      "inc r31\n"
      "1:\n\t"
      "st Z, r25\n\t"
      "ldi r30, lo8(gate)\n\t"
      "ldi r31, hi8(gate)\n\t"
      "add r30, r24\n\t"
      "brcc 2f\n\t"
      "inc r31\n"
      "2:\n\t"
      "ld r30, Z\n\t"
      "cp r25, r30\n\t"
      "pop r31\n\t"  // pops and out leave the carry flag alone
      "pop r30\n\t"
      "pop r25\n\t"
      "brsh 3f\n\t"
      "pop r24\n\t"
      "out __SREG__, r24\n\t"
      "pop r24\n\t"
      "reti\n"
      "3:\n\t"
      "pop r24\n\t"
      "out __SREG__, r24\n\t"
      "pop r24\n\t"
      "jmp adcSlow\n\t" ::[mux] "M"(ADMUX_BASE),
      [admux] "n"(_SFR_MEM_ADDR(ADMUX)), [start] "M"(ADCSRA_BASE | (1 << ADSC)),
      [adcsra] "n"(_SFR_MEM_ADDR(ADCSRA)), [adch] "n"(_SFR_MEM_ADDR(ADCH)));
}

static inline uint8_t idleGate(uint8_t ch) { return threshold[ch] ? onset[ch] : 255; }

// The sample was held when its conversion started, one conversion (~14.5 us) before
// this interrupt, plus the ~2 us the vector takes to get here.
#define SAMPLE_AGE_US 16

void adcSlow(void) {
  uint8_t ch = (curCh - 1) & 7;
  uint8_t v = lastSample[ch];
  if (ch == VIB_CH) {
    adcCount++;
    if (v > vibMax) vibMax = v;
    gate[VIB_CH] = vibMax == 255 ? 255 : vibMax + 1;
    return;
  }
  uint16_t r = refrLeft[ch];
  if (r) {
    if (--r == 0) waitQuiet[ch] = 1;
    refrLeft[ch] = r;
    return;
  }
  if (waitQuiet[ch]) {  // a ringing envelope must fall below onset before a new hit
    if (v < onset[ch]) {
      waitQuiet[ch] = 0;
      gate[ch] = idleGate(ch);
    }
    return;
  }
  uint8_t n = peakLeft[ch];
  if (n) {
    if (v > peakVal[ch]) peakVal[ch] = v;
    if (--n == 0) {
      if (peakVal[ch] >= threshold[ch]) {
        pushEvent(crossUs[ch], ch, peakVal[ch]);
        refrLeft[ch] = refrSamples[ch];
        if (!refrSamples[ch]) waitQuiet[ch] = 1;
      } else {
        waitQuiet[ch] = 1;  // a bump below the threshold: not a hit
      }
    }
    peakLeft[ch] = n;
    return;
  }
  uint8_t th = threshold[ch];
  if (th && v >= onset[ch]) {
    gate[ch] = 0;
    peakLeft[ch] = PEAK_SAMPLES;
    peakVal[ch] = v;
    crossUs[ch] = usFromTick(TCNT1) - SAMPLE_AGE_US;
  }
}

ISR(USART_RX_vect) {
  uint8_t s = UCSR0A;
  uint8_t b = UDR0;
  if (s & ((1 << FE0) | (1 << DOR0))) rxErrors++;
  uint8_t nh = (rxHead + 1) & (RXQ_SIZE - 1);
  if (nh == rxTail) {
    rxErrors++;
    return;
  }
  rxq[rxHead] = b;
  rxHead = nh;
}

// TX from the UDRE interrupt so line rate does not depend on main-loop speed. When the
// queue runs dry the interrupt is switched off and the next frame kick-starts UDR0
// itself (avr8js clears UDRE when the vector is serviced, unlike the silicon, so
// re-enabling UDRIE alone would wait forever there; this works on both).
static volatile uint8_t txIdle = 1;
ISR(USART_UDRE_vect) {
  uint8_t t = txTail;
  if (t == txHead) {
    UCSR0B &= ~(1 << UDRIE0);
    txIdle = 1;
    return;
  }
  UDR0 = txq[t];
  txTail = t + 1;
}

static inline uint8_t txFree() { return (uint8_t)(txTail - txHead - 1); }

static uint8_t txW;  // write cursor while a frame is assembled, published at the end

static uint16_t crcPut(uint16_t crc, uint8_t b) {
  txq[txW++] = b;
  return _crc_xmodem_update(crc, b);
}

// Frame: A5 5A LEN TYPE SEQ PAYLOAD CRC16(hi,lo); CRC-16/CCITT-FALSE over LEN..PAYLOAD.
static bool sendFrame(uint8_t type, const uint8_t *p, uint8_t len) {
  if (txFree() < (uint8_t)(len + 7)) return false;
  txW = txHead;
  txq[txW++] = SYNC0;
  txq[txW++] = SYNC1;
  uint16_t crc = 0xFFFF;
  crc = crcPut(crc, len);
  crc = crcPut(crc, type);
  crc = crcPut(crc, txSeq++);
  for (uint8_t i = 0; i < len; i++) crc = crcPut(crc, p[i]);
  txq[txW++] = crc >> 8;
  txq[txW++] = crc & 0xFF;
  txHead = txW;
  uint8_t sreg = SREG;
  cli();
  if (txIdle) {
    txIdle = 0;
    UDR0 = txq[txTail];
    txTail = txTail + 1;
    UCSR0B |= (1 << UDRIE0);
  }
  SREG = sreg;
  return true;
}

static void sendStatus(uint8_t type, const uint8_t *p, uint8_t len) {
  if (!sendFrame(type, p, len)) txDropped++;
}

static inline void put16(uint8_t *p, uint16_t v) {
  p[0] = v;
  p[1] = v >> 8;
}
static inline void put32(uint8_t *p, uint32_t v) {
  p[0] = v;
  p[1] = v >> 8;
  p[2] = v >> 16;
  p[3] = v >> 24;
}

// v2 HELLO: the v1 fields, then board time bits 32..47, the boot id and flags.
static void sendHello(uint8_t flags) {
  uint8_t p[16] = {PROTO_VERSION, FW_MAJOR, FW_MINOR, FW_PATCH, NUM_ADC, NUM_SKITTLES, resetCause};
  uint16_t w;
  put32(p + 7, micros48(&w));
  put16(p + 11, w);
  put16(p + 13, bootId);
  p[15] = flags;
  sendStatus(MSG_HELLO, p, sizeof p);
}

// v2 HEARTBEAT: the v1 fields, then the boot id and board time bits 32..47.
static void sendHeartbeat() {
  uint8_t p[17];
  uint16_t w;
  put32(p, micros48(&w));
  cli();
  uint16_t d = evDropped, r = rxErrors;
  sei();
  put16(p + 4, d);
  put16(p + 6, txDropped);
  put16(p + 8, r);
  put16(p + 10, loopMaxTicks >> 1);
  loopMaxTicks = 0;
  p[12] = skStable;
  put16(p + 13, bootId);
  put16(p + 15, w);
  sendStatus(MSG_HEARTBEAT, p, sizeof p);
}

static void sendConfig() {
  uint8_t p[1 + NUM_DETECT * 3 + 2];
  p[0] = NUM_DETECT;
  for (uint8_t i = 0; i < NUM_DETECT; i++) {
    p[1 + i * 3] = threshold[i];
    put16(p + 2 + i * 3, refractoryMs[i]);
  }
  p[1 + NUM_DETECT * 3] = debounceMs;
  p[2 + NUM_DETECT * 3] = invertMask;
  sendStatus(MSG_CONFIG, p, sizeof p);
}

static void sendAck(uint8_t type, uint8_t seq, uint8_t status) {
  uint8_t p[3] = {type, seq, status};
  sendStatus(MSG_ACK, p, 3);
}

static uint8_t readSkittles() {
  // Tilt switch closes to GND when the skittle falls: low = down.
  uint8_t raw = (uint8_t)(~PIND) >> 2;  // PD2..PD7 -> bits 0..5
  if (!(PINB & 1)) raw |= 1 << 6;       // PB0 -> bit 6
  return (raw ^ invertMask) & 0x7F;
}

static void selfTest(uint8_t seq) {
  cli();
  gate[VIB_CH] = 0;  // the next vibration sample takes the slow path and counts
  uint16_t before = adcCount;
  sei();
  uint32_t t0 = micros();
  // Bounded wait: a stopped timer must not hang the board (the watchdog would bite).
  for (uint16_t n = 0; n < 20000 && (uint32_t)(micros() - t0) < 2000; n++) wdt_reset();
  cli();
  uint16_t after = adcCount;
  sei();
  uint8_t status = 0;
  if (after != before) status |= 1;  // ADC interrupt running
  if ((uint32_t)(micros() - t0) >= 2000) status |= 2;  // timer counting
  bool quiet = true;
  for (uint8_t i = 0; i < NUM_DETECT; i++)
    if (threshold[i] && lastSample[i] >= threshold[i]) quiet = false;
  if (quiet) status |= 4;  // no channel stuck above its threshold
  uint8_t p[2 + NUM_ADC + 1];
  p[0] = seq;
  p[1] = status;
  for (uint8_t i = 0; i < NUM_ADC; i++) p[2 + i] = lastSample[i];
  p[2 + NUM_ADC] = readSkittles();
  sendStatus(MSG_SELFTEST, p, sizeof p);
}

static void setChannel(uint8_t ch, uint8_t thr, uint16_t ms) {
  // Refractory runs from the crossing; the peak window is part of it.
  uint32_t samples = (uint32_t)ms * SAMPLES_PER_MS;
  samples = samples > PEAK_SAMPLES ? samples - PEAK_SAMPLES : 0;
  if (samples > 0xFFFF) samples = 0xFFFF;
  cli();
  threshold[ch] = thr;
  onset[ch] = (uint8_t)((thr + 1) >> 1);
  waitQuiet[ch] = 0;
  refractoryMs[ch] = ms;
  refrSamples[ch] = samples;
  refrLeft[ch] = 0;
  peakLeft[ch] = 0;
  gate[ch] = idleGate(ch);
  sei();
}

static void handleCommand(uint8_t type, uint8_t seq, const uint8_t *p, uint8_t len) {
  switch (type) {
    case CMD_SET_CHANNEL:
      if (len != 4) return sendAck(type, seq, ACK_BAD_LENGTH);
      if (p[0] >= NUM_DETECT || (uint16_t)(p[2] | (p[3] << 8)) > 7000) return sendAck(type, seq, ACK_BAD_VALUE);
      setChannel(p[0], p[1], p[2] | (p[3] << 8));
      return sendAck(type, seq, ACK_OK);
    case CMD_SET_DEBOUNCE:
      if (len != 1) return sendAck(type, seq, ACK_BAD_LENGTH);
      if (p[0] == 0 || p[0] > 200) return sendAck(type, seq, ACK_BAD_VALUE);
      debounceMs = p[0];
      return sendAck(type, seq, ACK_OK);
    case CMD_SET_INVERT:
      if (len != 1) return sendAck(type, seq, ACK_BAD_LENGTH);
      if (p[0] > 0x7F) return sendAck(type, seq, ACK_BAD_VALUE);
      invertMask = p[0];
      skStable = readSkittles();  // a polarity change is not a fall: start from the new reading
      for (uint8_t i = 0; i < NUM_SKITTLES; i++) skCount[i] = 0;
      return sendAck(type, seq, ACK_OK);
    case CMD_GET_VERSION:
      return sendHello(helloFlags & ~HELLO_AT_BOOT);
    case CMD_GET_CONFIG:
      return sendConfig();
    case CMD_SELF_TEST:
      return selfTest(seq);
    default:
      return sendAck(type, seq, ACK_UNKNOWN);
  }
}

// Command parser: a tiny frame hunter; a bad frame restarts the hunt at the next byte.
static uint8_t rxBuf[MAX_PAYLOAD + 4];
static uint8_t rxState, rxLen, rxPos;

static void serviceRx() {
  while (rxTail != rxHead) {
    uint8_t b = rxq[rxTail];
    rxTail = (rxTail + 1) & (RXQ_SIZE - 1);
    switch (rxState) {
      case 0:
        if (b == SYNC0) rxState = 1;
        break;
      case 1:
        rxState = b == SYNC1 ? 2 : (b == SYNC0 ? 1 : 0);
        break;
      case 2:
        if (b > MAX_PAYLOAD) {
          rxErrors++;
          rxState = 0;
        } else {
          rxLen = b;
          rxPos = 0;
          rxState = 3;
        }
        break;
      default:
        rxBuf[rxPos++] = b;  // TYPE SEQ PAYLOAD CRCH CRCL
        if (rxPos == rxLen + 4) {
          rxState = 0;
          uint16_t crc = _crc_xmodem_update(0xFFFF, rxLen);
          for (uint8_t i = 0; i < rxLen + 2; i++) crc = _crc_xmodem_update(crc, rxBuf[i]);
          if (crc != (uint16_t)((rxBuf[rxLen + 2] << 8) | rxBuf[rxLen + 3])) {
            rxErrors++;
          } else {
            handleCommand(rxBuf[0], rxBuf[1], rxBuf + 2, rxLen);
          }
        }
    }
  }
}

// Events leave this much TX space free so heartbeats still get out during a flood.
#define STATUS_RESERVE 40

// At most two frames per pass keeps every main-loop pass short (the ADC interrupt
// leaves main ~30 % of the CPU); the queue absorbs the rest.
static void serviceEvents() {
  for (uint8_t k = 0; k < 2 && evqTail != evqHead && txFree() >= 13 + STATUS_RESERVE; k++) {
    uint8_t t = evqTail;
    uint8_t p[6];
    uint8_t ch = evq[t].ch;
    put32(p + 2, evq[t].t);
    evqTail = (t + 1) & (EVQ_SIZE - 1);
    if (ch & 0x80) {
      p[0] = ch & 0x7F;
      p[1] = evq[t].value;
      sendFrame(MSG_SKITTLE, p, 6);
    } else {
      p[0] = ch;
      p[1] = evq[t].value;
      sendFrame(MSG_IMPACT, p, 6);
    }
  }
}

// Called once per millisecond: a switch must hold its new level for debounceMs; the
// event carries the time of the first sample at the new level.
static void debounce(uint32_t now) {
  uint8_t raw = readSkittles();
  for (uint8_t i = 0; i < NUM_SKITTLES; i++) {
    uint8_t bit = 1 << i;
    if ((raw ^ skStable) & bit) {
      if (skCount[i] == 0) skSince[i] = now;  // first sample at the new level
      if (++skCount[i] >= debounceMs) {
        skStable ^= bit;
        skCount[i] = 0;
        cli();
        pushEvent(skSince[i], 0x80 | i, (skStable & bit) ? 1 : 0);
        sei();
      }
    } else {
      skCount[i] = 0;  // bounced back: start over
    }
  }
}

int main() {
  // Tilt switch inputs with pull-ups.
  DDRD &= 0x03;
  PORTD |= 0xFC;
  DDRB &= ~1;
  PORTB |= 1;
  DIDR0 = 0x3F;  // digital buffers off on ADC0..5 (ADC6/7 have none)

  // Timer1: normal mode, clk/8 = 0.5 us per tick, overflow extends to 32 bits.
  TCCR1A = 0;
  TCCR1B = (1 << CS11);
  TIMSK1 = (1 << TOIE1);

  // USART0 115200 8N1, U2X (UBRR 16 -> 117647 baud, +2.1%, as the Arduino core does).
  UCSR0A = (1 << U2X0);
  UBRR0 = 16;
  UCSR0B = (1 << RXEN0) | (1 << TXEN0) | (1 << RXCIE0);
  UCSR0C = (1 << UCSZ01) | (1 << UCSZ00);

  // Boot counter in EEPROM (one 3.4 ms write per reset; 100k cycles = decades of resets).
  bootId = eeprom_read_word((uint16_t *)0) + 1;
  eeprom_write_word((uint16_t *)0, bootId);

  for (uint8_t i = 0; i < NUM_DETECT; i++) setChannel(i, 40, 30);
  skStable = readSkittles();

  curCh = 0;
  ADMUX = ADMUX_BASE;
  ADCSRA = ADCSRA_BASE | (1 << ADSC);
  sei();

  wdt_enable(WDTO_250MS);
  sendHello(helloFlags);

  uint32_t now = micros();
  uint32_t lastMs = now, lastVib = now, lastHb = now;
  cli();
  uint16_t lastTick = TCNT1;
  sei();
  for (;;) {
    wdt_reset();
    cli();  // 16-bit timer reads share the TEMP register with the ADC ISR's read
    uint16_t tick = TCNT1;
    sei();
    uint16_t dt = tick - lastTick;
    if (dt > loopMaxTicks) loopMaxTicks = dt;
    lastTick = tick;

    serviceRx();
    serviceEvents();

    now = micros();
    if ((uint32_t)(now - lastMs) >= 1000) {
      lastMs += 1000;
      debounce(now);
    }
    if ((uint32_t)(now - lastVib) >= VIBRATION_US) {
      lastVib += VIBRATION_US;
      cli();
      uint8_t level = vibMax;
      vibMax = 0;
      gate[VIB_CH] = 0;
      sei();
      uint8_t p[5] = {level};
      put32(p + 1, now);
      sendStatus(MSG_VIBRATION, p, 5);
    }
    if ((uint32_t)(now - lastHb) >= HEARTBEAT_US) {
      lastHb += HEARTBEAT_US;
      sendHeartbeat();
    }
  }
}
