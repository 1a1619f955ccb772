import { Logger } from '@nestjs/common';
import { BalanceWatch } from './balance-watch';

/** Records what would be logged, by level. */
class RecordingLogger extends Logger {
  readonly lines: Array<{ level: string; facts: unknown }> = [];
  override warn(facts: unknown): void {
    this.lines.push({ level: 'warn', facts });
  }
  override log(facts: unknown): void {
    this.lines.push({ level: 'log', facts });
  }
}

describe(BalanceWatch.name, () => {
  it('logs a crossing below the threshold once, and a refill once, not every observation', () => {
    const logger = new RecordingLogger();
    const watch = new BalanceWatch('0xA77e57e4', 100n, logger);
    expect([150n, 120n, 99n, 50n, 10n].map((wei) => watch.observe(wei))).toEqual([
      false,
      false,
      true,
      true,
      true,
    ]);
    expect(watch.lowBalance).toBe(true);
    watch.observe(200n);
    watch.observe(300n);
    expect(logger.lines.map((line) => line.level)).toEqual(['warn', 'log']);
    expect(logger.lines[0].facts).toMatchObject({
      event: 'attester.balance.low',
      address: '0xA77e57e4',
      thresholdEth: '0.0000000000000001',
    });
  });
});
