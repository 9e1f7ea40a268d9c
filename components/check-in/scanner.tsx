"use client";

import { useEffect, useRef, useState } from "react";

/**
 * The camera scanner of the check-in page (issue 36 item 2). The browser's own `BarcodeDetector`
 * where it has one with QR support, else jsQR (plain JavaScript: no WebAssembly, so the CSP stays as
 * it is), loaded only then. The camera is allowed on the check-in route only (next.config.mjs).
 */

type Detect = (video: HTMLVideoElement, canvas: HTMLCanvasElement) => Promise<string | null>;

type NativeDetector = { detect(source: CanvasImageSource): Promise<{ rawValue: string }[]> };
type DetectorClass = {
  new (opts: { formats: string[] }): NativeDetector;
  getSupportedFormats?: () => Promise<string[]>;
};

async function nativeDetector(): Promise<Detect | null> {
  const BD = (globalThis as { BarcodeDetector?: DetectorClass }).BarcodeDetector;
  if (!BD) return null;
  try {
    const formats = (await BD.getSupportedFormats?.()) ?? ["qr_code"];
    if (!formats.includes("qr_code")) return null;
    const detector = new BD({ formats: ["qr_code"] });
    return async (video) => (await detector.detect(video))[0]?.rawValue ?? null;
  } catch {
    return null;
  }
}

async function jsqrDetector(): Promise<Detect> {
  const jsQR = (await import("jsqr")).default;
  return async (video, canvas) => {
    const w = video.videoWidth;
    const h = video.videoHeight;
    if (!w || !h) return null;
    // a smaller frame decodes faster on a phone and still holds a ticket's QR
    const scale = Math.min(1, 640 / Math.max(w, h));
    canvas.width = Math.round(w * scale);
    canvas.height = Math.round(h * scale);
    const ctx = canvas.getContext("2d", { willReadFrequently: true });
    if (!ctx) return null;
    ctx.drawImage(video, 0, 0, canvas.width, canvas.height);
    const img = ctx.getImageData(0, 0, canvas.width, canvas.height);
    return jsQR(img.data, img.width, img.height, { inversionAttempts: "dontInvert" })?.data ?? null;
  };
}

/** The same ticket held in front of the camera is sent once per this many ms. */
const SAME_TICKET_PAUSE_MS = 4000;

export function Scanner({ onToken }: { onToken: (token: string) => void }) {
  const video = useRef<HTMLVideoElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [engine, setEngine] = useState<string>("");
  const latest = useRef(onToken);
  useEffect(() => {
    latest.current = onToken;
  }, [onToken]);

  useEffect(() => {
    let stopped = false;
    let stream: MediaStream | null = null;
    const last = { token: "", at: 0 };
    (async () => {
      try {
        stream = await navigator.mediaDevices.getUserMedia({
          video: { facingMode: { ideal: "environment" } },
          audio: false,
        });
      } catch {
        setProblem("The camera is not available. Allow it in the browser, or type the ticket code below.");
        return;
      }
      if (stopped || !video.current) return;
      video.current.srcObject = stream;
      await video.current.play().catch(() => {});
      const native = await nativeDetector();
      const detect = native ?? (await jsqrDetector());
      setEngine(native ? "the browser's detector" : "jsQR");
      while (!stopped) {
        const v = video.current;
        const found = v && canvas.current ? await detect(v, canvas.current).catch(() => null) : null;
        const now = Date.now();
        if (found && (found !== last.token || now - last.at > SAME_TICKET_PAUSE_MS)) {
          last.token = found;
          last.at = now;
          latest.current(found);
        }
        await new Promise((r) => setTimeout(r, 200));
      }
    })();
    return () => {
      stopped = true;
      stream?.getTracks().forEach((t) => t.stop());
    };
  }, []);

  return (
    <div>
      {problem ? (
        <p role="alert" className="text-red-700">
          {problem}
        </p>
      ) : (
        <>
          <video
            ref={video}
            className="aspect-square w-full max-w-md rounded-lg bg-black object-cover"
            muted
            playsInline
            aria-label="Camera"
          />
          <p className="mt-1 text-xs text-slate-500">
            Hold the ticket&apos;s QR code in front of the camera{engine ? ` (decoded by ${engine})` : ""}.
          </p>
        </>
      )}
      <canvas ref={canvas} className="hidden" />
    </div>
  );
}
