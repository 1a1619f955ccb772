import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { whenResponseEnds } from './when-response-ends';

const response = () => new EventEmitter() as unknown as ServerResponse;

describe('whenResponseEnds', () => {
  it('runs every hook once, in the order they came, on finish then close', () => {
    const res = response();
    const calls: string[] = [];
    whenResponseEnds(res, () => calls.push('a'));
    whenResponseEnds(res, () => calls.push('b'));
    whenResponseEnds(res, () => calls.push('c'));
    res.emit('finish');
    res.emit('close');
    expect(calls).toEqual(['a', 'b', 'c']);
  });

  it('runs the hooks when the connection closes before the response finished', () => {
    const res = response();
    const calls: string[] = [];
    whenResponseEnds(res, () => calls.push('a'));
    whenResponseEnds(res, () => calls.push('b'));
    res.emit('close');
    res.emit('finish');
    expect(calls).toEqual(['a', 'b']);
  });

  it('adds one listener pair per response, however many hooks', () => {
    const res = response() as unknown as EventEmitter;
    for (let i = 0; i < 3; i += 1) whenResponseEnds(res as unknown as ServerResponse, () => {});
    expect(res.listenerCount('finish')).toBe(1);
    expect(res.listenerCount('close')).toBe(1);
  });

  it('keeps hooks of different responses apart', () => {
    const first = response();
    const second = response();
    const calls: string[] = [];
    whenResponseEnds(first, () => calls.push('first'));
    whenResponseEnds(second, () => calls.push('second'));
    second.emit('finish');
    expect(calls).toEqual(['second']);
    first.emit('close');
    expect(calls).toEqual(['second', 'first']);
  });

  it('a hook added after the end runs when the next end event comes', () => {
    const res = response();
    const calls: string[] = [];
    whenResponseEnds(res, () => calls.push('early'));
    res.emit('finish');
    whenResponseEnds(res, () => calls.push('late'));
    res.emit('close');
    expect(calls).toEqual(['early', 'late']);
  });
});
