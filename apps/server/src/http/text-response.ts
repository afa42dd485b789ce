import type { FastifyReply } from 'fastify';
import { z } from 'zod';

/** Response schema of a *text* endpoint (DESIGN §4), documented in OpenAPI as text/plain. */
export function textResponse(description: string) {
  return { description, content: { 'text/plain': { schema: z.string() } } };
}

/** Answers a *text* endpoint: the spec's clients show this text as the success message. Return `reply` after it. */
export function sendText(reply: FastifyReply, status: number, text: string): void {
  void reply.status(status).type('text/plain; charset=utf-8').send(text);
}
