-- CreateTable
CREATE TABLE "CoverImage" (
    "id" TEXT NOT NULL,
    "campaignId" TEXT NOT NULL,
    "uploaderId" TEXT NOT NULL,
    "etag" TEXT NOT NULL,
    "width" INTEGER NOT NULL,
    "height" INTEGER NOT NULL,
    "small" BYTEA NOT NULL,
    "medium" BYTEA NOT NULL,
    "large" BYTEA NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CoverImage_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "CoverImage_campaignId_key" ON "CoverImage"("campaignId");

-- AddForeignKey
ALTER TABLE "CoverImage" ADD CONSTRAINT "CoverImage_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "Campaign"("id") ON DELETE CASCADE ON UPDATE CASCADE;
