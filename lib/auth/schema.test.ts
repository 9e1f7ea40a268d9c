import { describe, expect, it } from "vitest";
import { isCommonPassword } from "@/lib/auth/common-passwords";
import { AUTH_TEXT, fieldErrorsOf, NAME_MAX, signInSchema, signUpSchema } from "@/lib/auth/schema";

const firstErrors = (result: { success: boolean; error?: Parameters<typeof fieldErrorsOf>[0] }) =>
  result.success ? {} : fieldErrorsOf(result.error!);

describe("signUpSchema", () => {
  it("accepts a valid sign-up and stores the email trimmed and lower-cased", () => {
    const parsed = signUpSchema.parse({
      email: "  Ada.Lovelace@Example.COM ",
      password: "analytical-engine",
      name: "  Ada  ",
    });
    expect(parsed).toEqual({ email: "ada.lovelace@example.com", password: "analytical-engine", name: "Ada" });
  });

  it("treats a blank or missing display name as none", () => {
    expect(
      signUpSchema.parse({ email: "a@b.co", password: "analytical-engine", name: "   " }).name,
    ).toBeNull();
    expect(signUpSchema.parse({ email: "a@b.co", password: "analytical-engine" }).name).toBeNull();
  });

  it.each(["not-an-email", "a@", "@example.com", "a b@example.com", `${"x".repeat(250)}@example.com`])(
    "refuses the email %j with 'Invalid email address'",
    (email) => {
      expect(firstErrors(signUpSchema.safeParse({ email, password: "analytical-engine" })).email).toBe(
        AUTH_TEXT.invalidEmail,
      );
    },
  );

  it("asks for a missing email", () => {
    expect(firstErrors(signUpSchema.safeParse({ email: "  ", password: "analytical-engine" })).email).toBe(
      AUTH_TEXT.emailRequired,
    );
    expect(firstErrors(signUpSchema.safeParse({ password: "analytical-engine" })).email).toBe(
      AUTH_TEXT.emailRequired,
    );
  });

  it.each(["abc12", "12345", "x"])("refuses the short password %j as too weak", (password) => {
    expect(firstErrors(signUpSchema.safeParse({ email: "a@b.co", password })).password).toBe(
      "Password is too weak",
    );
  });

  it.each(["password", "123456", "qwerty", "PASSWORD", "Password", "iloveyou", "sunshine", "trustno1"])(
    "refuses the common password %j as too weak",
    (password) => {
      expect(firstErrors(signUpSchema.safeParse({ email: "a@b.co", password })).password).toBe(
        "Password is too weak",
      );
    },
  );

  it("accepts a 6-character password that is not common, and refuses an empty one as required", () => {
    expect(signUpSchema.safeParse({ email: "a@b.co", password: "zq7!kp" }).success).toBe(true);
    expect(firstErrors(signUpSchema.safeParse({ email: "a@b.co", password: "" })).password).toBe(
      AUTH_TEXT.passwordRequired,
    );
  });

  it("limits the display name to 50 characters", () => {
    expect(
      signUpSchema.safeParse({ email: "a@b.co", password: "zq7!kp", name: "n".repeat(NAME_MAX) }).success,
    ).toBe(true);
    expect(
      firstErrors(
        signUpSchema.safeParse({ email: "a@b.co", password: "zq7!kp", name: "n".repeat(NAME_MAX + 1) }),
      ).name,
    ).toBe(AUTH_TEXT.nameTooLong);
  });
});

describe("signInSchema", () => {
  it("normalises the email and keeps the password as typed", () => {
    expect(signInSchema.parse({ email: " Bob@Example.com", password: " Secret1 " })).toEqual({
      email: "bob@example.com",
      password: " Secret1 ",
    });
  });

  it("requires a password of at least 6 characters (SPEC §5) but does not judge its strength", () => {
    expect(firstErrors(signInSchema.safeParse({ email: "a@b.co", password: "" })).password).toBe(
      AUTH_TEXT.passwordRequired,
    );
    expect(firstErrors(signInSchema.safeParse({ email: "a@b.co", password: "12345" })).password).toBe(
      AUTH_TEXT.passwordTooShort,
    );
    expect(signInSchema.safeParse({ email: "a@b.co", password: "password" }).success).toBe(true);
  });

  it("ignores NextAuth's extra form fields", () => {
    expect(
      signInSchema.parse({
        email: "a@b.co",
        password: "secret1",
        csrfToken: "x",
        callbackUrl: "/",
        json: "true",
      }),
    ).toEqual({
      email: "a@b.co",
      password: "secret1",
    });
  });
});

describe("isCommonPassword", () => {
  it("knows the top of the list and its 1,000th entry, and not a passphrase", () => {
    expect(isCommonPassword("123456")).toBe(true);
    expect(isCommonPassword("freepass")).toBe(true); // line 1,000 of the source list
    expect(isCommonPassword("correct horse battery staple")).toBe(false);
    expect(isCommonPassword("pactnexus-demo")).toBe(false);
  });
});
