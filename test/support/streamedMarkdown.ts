import { LateReferences } from '../../src/webview/chat/render/lateReferences';
import {
  addDefinitions,
  lexBlocks,
  newLinkMap,
  proseOf,
  renderBlocks,
  splitFinished,
  type LinkMap,
} from '../../src/webview/chat/render/markdownBlocks';

/** A piece of finished blocks drawn once, as the chat draws one into a chunk. */
interface Piece {
  start: number;
  end: number;
  html: string;
}

/** Renders a whole text in one go, as a reply loaded from history is. */
export function renderWhole(text: string): string {
  const tokens = lexBlocks(text, newLinkMap());
  return renderBlocks(tokens, tokens.links);
}

/**
 * Renders a text the way the chat's stream renderer does when it arrives in pieces ending at `cuts`: at each cut the
 * unfinished tail is lexed, its finished blocks are drawn once (pieces that a later definition changes are drawn
 * again), and when the text ends the rest is finished. Returns the HTML the page ends with.
 */
export function renderStreamed(text: string, cuts: readonly number[]): string {
  const pieces: Piece[] = [];
  const links: LinkMap = newLinkMap();
  const late = new LateReferences<Piece>();
  let finishedEnd = 0;
  const redraw = (piece: Piece): void => {
    const tokens = lexBlocks(text.slice(piece.start, piece.end), links);
    piece.html = renderBlocks(tokens, links);
    late.note(piece, proseOf(tokens), links, links);
  };
  const finish = (tokens: ReturnType<typeof lexBlocks>, length: number, lexed: LinkMap): void => {
    const piece: Piece = { start: finishedEnd, end: finishedEnd + length, html: '' };
    finishedEnd = piece.end;
    const added = addDefinitions(tokens, links);
    piece.html = renderBlocks(tokens, links);
    pieces.push(piece);
    late.note(piece, proseOf(tokens), links, lexed);
    late.defined(added).forEach(redraw);
  };
  for (const cut of cuts) {
    const tokens = lexBlocks(text.slice(finishedEnd, cut), links);
    const split = splitFinished(tokens);
    if (split.finished.length) {
      finish(split.finished as ReturnType<typeof lexBlocks>, split.finishedLength, tokens.links);
    }
  }
  const rest = lexBlocks(text.slice(finishedEnd), links);
  finish(rest, text.length - finishedEnd, rest.links);
  late.unsettled().forEach(redraw);
  return pieces.map((p) => p.html).join('');
}

/** A deterministic pseudo-random sequence in [0, 1). */
export function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Cuts at every character. */
export function everyChar(text: string): number[] {
  return Array.from({ length: text.length }, (_, i) => i);
}

/** Cuts a seeded random distance apart, 1 to `longest` characters. */
export function randomCuts(text: string, seed: number, longest: number): number[] {
  const next = random(seed);
  const cuts: number[] = [];
  for (let at = 1 + Math.floor(next() * longest); at < text.length; at += 1 + Math.floor(next() * longest)) {
    cuts.push(at);
  }
  return cuts;
}
